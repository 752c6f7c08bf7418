package io.sandboxfactory.core.egress;

import io.sandboxfactory.core.internal.channel.HostChannel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

class ScratchTest {
    @TempDir Path tmp;
    @Test
    void curlThroughChannel() throws Exception {
        Upstreams.Tls tls = Upstreams.https(tmp);
        EgressSessions sessions = new EgressSessions();
        List<EgressEvent> events = new CopyOnWriteArrayList<>();
        EgressPolicy policy = new EgressPolicy(EgressMode.ALLOWLIST, List.of(EgressRule.parse("a", "api.example.test")), List.of());
        String cap = sessions.register("s", () -> policy);
        try (EgressProxy proxy = new EgressProxy(sessions, new EgressResolver(Map.of("api.example.test", Upstreams.address())), events::add, Clock.systemUTC(), Optional.empty());
             HostChannel channel = HostChannel.open(tmp.resolve("ch"), "egress-x", (h, in, out) -> {
                 System.out.println("HEADER " + h);
                 java.io.InputStream win = new java.io.FilterInputStream(in) {
                     @Override public int read(byte[] b, int off, int len) throws java.io.IOException { int n = super.read(b, off, len); System.out.println("READ " + n + ": " + (n > 0 ? new String(b, off, Math.min(n, 80)).replace("\r\n", "|") : "")); return n; }
                 };
                 java.io.OutputStream wout = new java.io.FilterOutputStream(out) {
                     @Override public void write(byte[] b, int off, int len) throws java.io.IOException { System.out.println("WRITE " + len); out.write(b, off, len); }
                 };
                 try { proxy.serveChannel("s", win, wout); } catch (Exception e) { System.out.println("EXC " + e); throw e; }
                 System.out.println("RETURNED");
             })) {
            Process direct = new ProcessBuilder("sh", channel.client().toString(), "egress").start();
            direct.getOutputStream().write(("CONNECT api.example.test:" + tls.port() + " HTTP/1.1\r\nProxy-Authorization: Basic " + java.util.Base64.getEncoder().encodeToString((cap + ":").getBytes()) + "\r\n\r\n").getBytes());
            direct.getOutputStream().flush();
            byte[] got = new byte[100];
            int n = direct.getInputStream().read(got);
            System.out.println("DIRECT GOT " + n + " " + (n > 0 ? new String(got, 0, n) : ""));
            direct.destroy();
            Process nc = new ProcessBuilder("busybox", "nc", "-ll", "-p", "39128", "-e", "sh", channel.client().toString(), "egress").redirectErrorStream(true).start();
            Thread.sleep(300);
            Process p = new ProcessBuilder("curl", "-v", "-sS", "-k", "--max-time", "10", "--proxy", "http://" + cap + "@127.0.0.1:39128", "https://api.example.test:" + tls.port() + "/").redirectErrorStream(true).start();
            System.out.println("CURL OUTPUT:\n" + new String(p.getInputStream().readAllBytes()));
            System.out.println("EVENTS " + events);
            nc.destroy();
        }
        tls.server().stop(0);
    }
}
