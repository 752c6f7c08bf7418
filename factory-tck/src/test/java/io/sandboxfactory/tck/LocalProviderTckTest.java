package io.sandboxfactory.tck;

import io.sandboxfactory.provider.local.LocalProviderConfig;
import io.sandboxfactory.provider.local.LocalSandboxProvider;

/** The local provider passes the kit: sessions as real directories, real /bin/sh commands. */
class LocalProviderTckTest extends ProviderContractTest<LocalProviderConfig> {

    LocalProviderTckTest() {
        super(new LocalSandboxProvider(), dir -> LocalProviderConfig.withRoot(dir.resolve("sessions").toString()));
    }
}
