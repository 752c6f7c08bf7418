package io.sandboxfactory.tck;

import io.sandboxfactory.tck.fixtures.DirectoryConfig;
import io.sandboxfactory.tck.fixtures.DirectoryProvider;

/** The correct fixture provider passes the kit: the broken ones differ from it in one flaw each. */
class ReferenceProviderTckTest extends ProviderContractTest<DirectoryConfig> {

    ReferenceProviderTckTest() {
        super(new DirectoryProvider(), dir -> new DirectoryConfig(dir.toString()));
    }
}
