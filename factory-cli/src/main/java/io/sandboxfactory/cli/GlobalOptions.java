package io.sandboxfactory.cli;

import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

import java.nio.file.Path;

/** Options every {@code factory} command accepts, before or after the command name. */
public final class GlobalOptions {

    @Option(names = "--provider", paramLabel = "NAME", scope = ScopeType.INHERIT,
            description = "Sandbox provider to use (beats config and FACTORY_PROVIDER).")
    public String provider;

    @Option(names = "--config", paramLabel = "FILE", scope = ScopeType.INHERIT,
            description = "Config file (YAML or JSON). Default: ./factory.yaml, ./factory.json, then $XDG_CONFIG_HOME/sandbox-factory/config.yaml.")
    Path config;

    @Option(names = "--state-dir", paramLabel = "DIR", scope = ScopeType.INHERIT,
            description = "State directory: session store, local sessions, plugins. Default: ~/.sandbox-factory.")
    public Path stateDir;

    @Option(names = "--json", scope = ScopeType.INHERIT, description = "Print one JSON document on stdout instead of human output.")
    public boolean json;

    @Option(names = "--verbose", scope = ScopeType.INHERIT, description = "Log details and print stack traces of errors.")
    public boolean verbose;

    @Option(names = "--quiet", scope = ScopeType.INHERIT, description = "Print no progress lines and no setup output.")
    public boolean quiet;
}
