package io.sandboxfactory.core.testing;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * A certificate for test servers on loopback, made with the JDK's keytool (no network, no CA): the
 * server's TLS context and a client's that trusts only it.
 *
 * @param server for an {@code HttpsServer}
 * @param client trusts the certificate and nothing else
 */
public record SelfSignedTls(SSLContext server, SSLContext client) {

    private static final String PASSWORD = "changeit";

    /** A certificate for {@code names} (the first its CN), its key store in {@code directory}; an IOException says why not. */
    public static SelfSignedTls make(Path directory, List<String> names) throws Exception {
        Path keystore = directory.resolve("self-signed.p12");
        Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
        if (!Files.isExecutable(keytool)) {
            throw new IOException("no keytool in " + keytool.getParent() + " (it comes with a JDK)");
        }
        String san = names.stream().map(name -> "dns:" + name).collect(Collectors.joining(","));
        Process made = new ProcessBuilder(keytool.toString(), "-genkeypair", "-alias", "server", "-keyalg", "EC", "-groupname", "secp256r1",
                "-validity", "2", "-dname", "CN=" + names.get(0), "-ext", "SAN=" + san, "-storetype", "PKCS12", "-keystore",
                keystore.toString(), "-storepass", PASSWORD, "-keypass", PASSWORD).redirectErrorStream(true).start();
        String output = new String(made.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!made.waitFor(60, TimeUnit.SECONDS) || made.exitValue() != 0) {
            throw new IOException("keytool failed: " + output.strip());
        }
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(keystore)) {
            store.load(in, PASSWORD.toCharArray());
        }
        KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keys.init(store, PASSWORD.toCharArray());
        SSLContext server = SSLContext.getInstance("TLS");
        server.init(keys.getKeyManagers(), null, null);
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(store);
        SSLContext client = SSLContext.getInstance("TLS");
        client.init(null, trust.getTrustManagers(), null);
        return new SelfSignedTls(server, client);
    }
}
