package io.sandboxfactory.api.support;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sandboxfactory.api.files.PathOutsideRootException;
import io.sandboxfactory.api.files.TransferEntry;
import org.junit.jupiter.api.Test;

class CopyLinksTest {

    @Test
    void refusesAnEntryBelowALinkOfTheSameCopyAtAnyDepth() {
        CopyLinks links = new CopyLinks();
        links.check(TransferEntry.directory("d", 0755));
        links.check(TransferEntry.symlink("d/link", "/etc"));

        assertThatThrownBy(() -> links.check(TransferEntry.file("d/link/passwd", 1, 0644)))
                .isInstanceOf(PathOutsideRootException.class)
                .hasMessageContaining("'d/link/passwd'")
                .hasMessageContaining("below the symbolic link 'd/link' of the same copy");
        assertThatThrownBy(() -> links.check(TransferEntry.directory("d/link/x/y", 0755)))
                .isInstanceOf(PathOutsideRootException.class);
    }

    @Test
    void allowsSiblingsAndNamesThatOnlyStartLikeTheLink() {
        CopyLinks links = new CopyLinks();
        links.check(TransferEntry.symlink("link", "elsewhere"));

        assertThatCode(() -> {
            links.check(TransferEntry.file("linked/file", 1, 0644));
            links.check(TransferEntry.file("other", 1, 0644));
            links.check(TransferEntry.symlink("link", "replaced"));
        }).doesNotThrowAnyException();
    }

    @Test
    void aDirectoryOrFileIsNoLink() {
        CopyLinks links = new CopyLinks();
        links.check(TransferEntry.directory("dir", 0755));
        links.check(TransferEntry.file("file", 1, 0644));

        assertThatCode(() -> links.check(TransferEntry.file("dir/inner", 1, 0644))).doesNotThrowAnyException();
    }
}
