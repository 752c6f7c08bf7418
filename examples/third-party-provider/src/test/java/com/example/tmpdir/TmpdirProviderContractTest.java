package com.example.tmpdir;

import io.sandboxfactory.tck.ProviderContractTest;

import java.util.Map;

/** Runs the Sandbox Factory conformance kit against the tmpdir provider, each test under its own temporary root. */
class TmpdirProviderContractTest extends ProviderContractTest<TmpdirConfig> {

    TmpdirProviderContractTest() {
        super(new TmpdirSandboxProvider(), dir -> new TmpdirConfig(dir.toString(), Map.of("GREETING", "hello")));
    }
}
