package io.sandboxfactory.cli.daemon;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class InvocationTest {

    @Test
    void findsTheSubcommandAfterGlobalOptionsInBothSpellings() {
        Invocation invocation = Invocation.of(new String[] {"--json", "--provider", "local", "--state-dir=/s", "--quiet", "exec", "s1", "--", "true"});
        assertThat(invocation.subcommand()).contains("exec");
        assertThat(invocation.stateDirectory()).isEqualTo(Path.of("/s"));
        assertThat(invocation.help()).isFalse();
        assertThat(invocation.verbose()).isFalse();
        assertThat(invocation.quiet()).isTrue();
        assertThat(Invocation.of(new String[] {"open", "s1", "--quiet"}).quiet()).isTrue();
        assertThat(Invocation.of(new String[] {"exec", "s1", "--", "grep", "--quiet"}).quiet()).as("after --: the user's command's").isFalse();
    }

    @Test
    void readsTheStateDirectoryAndVerboseAfterTheSubcommandButNotAfterTheDoubleDash() {
        Invocation invocation = Invocation.of(new String[] {"exec", "s1", "--state-dir", "rel", "--timeout", "5s", "--", "grep", "--verbose", "--state-dir", "x"});
        assertThat(invocation.subcommand()).contains("exec");
        assertThat(invocation.stateDirectory()).isEqualTo(Path.of("rel"));
        assertThat(invocation.verbose()).as("--verbose after -- belongs to the user's command").isFalse();

        Invocation verbose = Invocation.of(new String[] {"exec", "--verbose", "s1", "--", "true"});
        assertThat(verbose.verbose()).isTrue();
        assertThat(verbose.help()).isFalse();
        assertThat(Invocation.of(new String[] {"--verbose", "run", "--repo", ".", "--branch", "b", "--", "true"}).verbose()).isTrue();
        assertThat(Invocation.of(new String[] {"--help"}).help()).isTrue();
        assertThat(Invocation.of(new String[] {"exec", "-h"}).help()).isTrue();
        assertThat(Invocation.of(new String[] {"exec", "-V"}).verbose()).isFalse();
    }

    @Test
    void theSubcommandsOwnOptionsDoNotHideIt() {
        Invocation open = Invocation.of(new String[] {"open", "s1", "--repo", "/r", "--branch", "b", "--setup", "make"});
        assertThat(open.subcommand()).contains("open");
    }

    @Test
    void anythingItDoesNotUnderstandBeforeTheSubcommandIsLeftToPicocli() {
        assertThat(Invocation.of(new String[] {"--bogus", "exec", "s1", "--", "true"}).subcommand()).isEmpty();
        assertThat(Invocation.of(new String[] {"--state-dir"}).subcommand()).isEmpty();
        assertThat(Invocation.of(new String[] {"--state-dir", "a\0b", "exec", "s1"}).subcommand()).isEmpty();
        assertThat(Invocation.of(new String[] {}).subcommand()).isEmpty();
        assertThat(Invocation.of(new String[] {"--", "exec"}).subcommand()).isEmpty();
    }
}
