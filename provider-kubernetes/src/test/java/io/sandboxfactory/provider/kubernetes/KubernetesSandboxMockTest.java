package io.sandboxfactory.provider.kubernetes;

import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.sandboxfactory.api.capability.AttachableSandbox;
import io.sandboxfactory.api.CommandOptions;
import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.api.FactorySandboxContext;
import io.sandboxfactory.api.files.FileTransferSandbox;
import io.sandboxfactory.api.SandboxCapability;
import io.sandboxfactory.api.SandboxDestroyedException;
import io.sandboxfactory.api.SandboxException;
import io.sandboxfactory.api.SandboxExecTransportException;
import io.sandboxfactory.api.files.SandboxFileException;
import io.sandboxfactory.api.capability.SandboxListing;
import io.sandboxfactory.api.SandboxResources;
import io.sandboxfactory.api.StartOutcome;
import io.sandboxfactory.api.files.TransferEntry;
import io.sandboxfactory.api.support.HostProcess;
import io.sandboxfactory.api.support.Polling;
import io.sandboxfactory.api.support.Sandboxes;
import io.sandboxfactory.api.testing.DeadHosts;
import io.sandboxfactory.provider.support.CommandScripts;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The provider against fabric8's mock API server (CRUD mode, loopback) with a {@link FakeKubelet}
 * running the execs on this host: the objects it makes, get-or-create, 409, stop and destroy,
 * inventory, exec and timeouts, tar file transfer, and the readiness failure message.
 */
class KubernetesSandboxMockTest {

    private static final String NAMESPACE = "sandboxes";

    @TempDir
    Path dir;

    private MockCluster cluster;
    private final List<KubernetesFactorySandbox> opened = new ArrayList<>();

    @BeforeEach
    void startCluster() {
        Assumptions.assumeTrue(FakeKubelet.usable(), "The fake kubelet needs mount namespaces (root); this host has none.");
        cluster = new MockCluster(dir.resolve("volumes"));
    }

    @AfterEach
    void stopCluster() {
        opened.forEach(KubernetesFactorySandbox::close);
        if (cluster != null) {
            cluster.close();
        }
    }

    private KubernetesProviderConfig.Builder config() {
        return KubernetesProviderConfig.builder().namespace(NAMESPACE).workingDirectory(dir.resolve("workspace").toString());
    }

    private KubernetesFactorySandbox open(KubernetesProviderConfig config, String owner) {
        return open(config, owner, dir);
    }

    private KubernetesFactorySandbox open(KubernetesProviderConfig config, String owner, Path stateDirectory) {
        KubernetesFactorySandbox factory = new KubernetesSandboxProvider().open(config,
                new TestContext(owner, stateDirectory, Optional.of(cluster.client())));
        opened.add(factory);
        return factory;
    }

    /** The names the factories of {@link #open} give {@code owner}'s objects. */
    private ResourceNames names(String owner) {
        return ResourceNames.of(owner, dir);
    }

    private KubernetesClient api() {
        return cluster.client();
    }

    @Test
    void createMakesALabelledPodWithLimitsOnItsOwnClaimGuardedByADenyAllPolicy() {
        KubernetesProviderConfig config = config().image("alpine/git:2.45.2").serviceAccount("sandboxes")
                .cpuRequest("250m").memoryLimit("1Gi").nodeSelector(Map.of("pool", "sandboxes"))
                .tolerations(List.of(new KubernetesToleration("dedicated", "Equal", "sandboxes", "NoSchedule", null)))
                .labels(Map.of("team", "infra")).storageClass("fast").storageSize("5Gi").build();
        KubernetesSandbox sandbox = open(config, "ci-runner-7").create(FactorySandboxContext.builder("Fix_42")
                .resources(new SandboxResources(Optional.of(2.0), Optional.empty())).build());
        sandbox.start();

        assertThat(sandbox.lastStartOutcome()).contains(StartOutcome.CREATED);
        String name = names("ci-runner-7").forSession("Fix_42");
        assertThat(name).matches("sf-[0-9a-f]{8}-fix-42-[0-9a-f]{12}");
        Pod pod = api().pods().inNamespace(NAMESPACE).withName(name).get();
        assertThat(pod.getMetadata().getLabels()).containsEntry("io.sandboxfactory/session", name)
                .containsEntry("io.sandboxfactory/provider", "kubernetes").containsEntry("io.sandboxfactory/owner", "ci-runner-7")
                .containsEntry("team", "infra");
        assertThat(pod.getMetadata().getAnnotations()).containsEntry("io.sandboxfactory/session-id", "Fix_42");
        var spec = pod.getSpec();
        assertThat(spec.getServiceAccountName()).isEqualTo("sandboxes");
        assertThat(spec.getAutomountServiceAccountToken()).isFalse();
        assertThat(spec.getNodeSelector()).containsEntry("pool", "sandboxes");
        assertThat(spec.getTolerations()).singleElement().satisfies(t -> {
            assertThat(t.getKey()).isEqualTo("dedicated");
            assertThat(t.getEffect()).isEqualTo("NoSchedule");
        });
        var container = spec.getContainers().get(0);
        assertThat(container.getImage()).isEqualTo("alpine/git:2.45.2");
        assertThat(container.getResources().getRequests()).containsEntry("cpu", new Quantity("2000m"));
        assertThat(container.getResources().getLimits()).containsEntry("cpu", new Quantity("2000m"))
                .containsEntry("memory", new Quantity("1Gi"));
        assertThat(container.getVolumeMounts().get(0).getMountPath()).isEqualTo(config.workingDirectory());
        assertThat(spec.getVolumes().get(0).getPersistentVolumeClaim().getClaimName()).isEqualTo(name);

        PersistentVolumeClaim claim = api().persistentVolumeClaims().inNamespace(NAMESPACE).withName(name).get();
        assertThat(claim.getSpec().getStorageClassName()).isEqualTo("fast");
        assertThat(claim.getSpec().getResources().getRequests()).containsEntry("storage", new Quantity("5Gi"));
        assertThat(claim.getMetadata().getLabels()).containsEntry("io.sandboxfactory/session", name);

        NetworkPolicy policy = api().network().v1().networkPolicies().inNamespace(NAMESPACE).withName(name).get();
        assertThat(policy.getSpec().getPodSelector().getMatchLabels()).isEqualTo(Map.of("io.sandboxfactory/session", name));
        assertThat(policy.getSpec().getPolicyTypes()).containsExactly("Ingress", "Egress");
        assertThat(policy.getSpec().getIngress()).isNullOrEmpty();
        assertThat(policy.getSpec().getEgress()).isNullOrEmpty();
    }

    @Test
    void anAttachIsKubectlExecIntoThePodWithTheSessionsVariablesInAFileOnlyTheSandboxsUserReads() {
        KubernetesSandbox sandbox = open(config().env(Map.of("FROM_CONFIG", "config-value")).build(), "me")
                .create(FactorySandboxContext.of("attach"));
        sandbox.setEnv(env -> {
            env.put("GIT_TOKEN", "s3cret 'value'");
            return env;
        });
        sandbox.start();

        AttachableSandbox.Attach attach = sandbox.attach(new AttachableSandbox.Request("/workspace/app", true, Map.of("PATH", "/usr/bin")));

        List<String> command = attach.command();
        assertThat(command).containsSequence("exec", "-i", "-t", names("me").forSession("attach"), "-c", "sandbox", "--",
                "sh", "-c", KubernetesShell.SCRIPT, "sh", "/workspace/app");
        assertThat(command).noneMatch(argument -> argument.contains("s3cret"));
        String file = command.get(command.size() - 1);
        assertThat(file).startsWith("/tmp/.factory-shell-");
        CommandResult read = sandbox.executeCommand("stat -c %a " + Sandboxes.quote(file) + " && env -i sh -c '. \"$0\" && printf"
                + " \"%s|%s\\n\" \"$GIT_TOKEN\" \"$FROM_CONFIG\"' " + Sandboxes.quote(file) + "; rm -f " + Sandboxes.quote(file));
        assertThat(read.stdout()).as(read.stderr()).isEqualTo("600\ns3cret 'value'|config-value\n");
    }

    @Test
    void networkPolicyNoneMakesNoPolicyAndClaimsNoIsolation() {
        KubernetesFactorySandbox factory = open(config().networkPolicy("none").build(), "me");
        assertThat(factory.capabilities()).doesNotContain(SandboxCapability.NETWORK_ISOLATION);
        factory.create(FactorySandboxContext.of("open-net")).start();
        assertThat(api().network().v1().networkPolicies().inNamespace(NAMESPACE).list().getItems()).isEmpty();
        assertThat(open(config().build(), "me").capabilities()).contains(SandboxCapability.NETWORK_ISOLATION,
                SandboxCapability.RESOURCE_LIMITS, SandboxCapability.INVENTORY, SandboxCapability.FILES_SURVIVE_STOP, SandboxCapability.ATTACH,
                SandboxCapability.STREAMS);
    }

    @Test
    void aSecondInstanceConnectsAndA409OnCreateConnectsToTheWinner() throws Exception {
        KubernetesFactorySandbox factory = open(config().build(), "me");
        KubernetesSandbox first = factory.create(FactorySandboxContext.of("shared"));
        first.start();
        first.executeCommand("echo one > f", List.of(), CommandOptions.defaults());

        KubernetesSandbox second = open(config().build(), "me").create(FactorySandboxContext.of("shared"));
        second.start();
        assertThat(second.lastStartOutcome()).contains(StartOutcome.CONNECTED);

        // A replica that saw nothing and creates anyway gets AlreadyExists for the claim and the pod, and uses them.
        KubernetesSandbox racer = open(config().build(), "me").create(FactorySandboxContext.of("shared"));
        assertThat(racer.create()).isEqualTo(first.name());
        assertThat(api().pods().inNamespace(NAMESPACE).list().getItems()).hasSize(1);
        assertThat(second.executeCommand("cat f", List.of(), CommandOptions.defaults()).stdout()).isEqualTo("one\n");
    }

    @Test
    void objectsOfAnotherSessionUnderTheSameNameAreNeverAdopted() {
        // Names carry the tenant, so only a crafted object can sit under this factory's name.
        KubernetesProviderConfig config = config().build();
        String name = names("me").forSession("taken");
        api().persistentVolumeClaims().inNamespace(NAMESPACE).resource(new SessionObjects(name, "0000000", "taken", "someone-else", config,
                SessionObjects.resources(config, SandboxResources.none()), config.workingDirectory(), Optional.empty()).claim()).create();
        KubernetesSandbox sandbox = open(config, "me").create(FactorySandboxContext.of("taken"));
        assertThatThrownBy(sandbox::start).isInstanceOf(SandboxException.class)
                .hasMessageContaining("is not the sandbox of session 'taken' for owner 'me'");
    }

    @Test
    void stopDeletesThePodAndKeepsTheClaimSoFilesSurviveTheNextStart() {
        KubernetesSandbox sandbox = open(config().build(), "me").create(FactorySandboxContext.of("keeps"));
        sandbox.executeCommand("echo kept > file", List.of(), CommandOptions.defaults());
        String name = sandbox.name();

        sandbox.stop();
        assertThat(api().pods().inNamespace(NAMESPACE).withName(name).get()).isNull();
        assertThat(api().persistentVolumeClaims().inNamespace(NAMESPACE).withName(name).get()).isNotNull();

        KubernetesSandbox later = open(config().build(), "me").create(FactorySandboxContext.of("keeps"));
        later.start();
        assertThat(later.lastStartOutcome()).contains(StartOutcome.CONNECTED);
        assertThat(later.executeCommand("cat file", List.of(), CommandOptions.defaults()).stdout()).isEqualTo("kept\n");
    }

    @Test
    void anEgressAllowListAddsAPolicyOfItsOwnThatReachesTheProxyOnlyAndGoesWithTheSession() throws Exception {
        KubernetesFactorySandbox factory = new KubernetesSandboxProvider().open(config().build(), new TestContext("me", dir,
                Optional.of(cluster.client()), Optional.of(new java.net.InetSocketAddress(java.net.InetAddress.getByName("10.0.0.2"), 3128))));
        opened.add(factory);
        KubernetesSandbox sandbox = factory.create(FactorySandboxContext.of("allow"));
        sandbox.start();
        String name = sandbox.name();

        NetworkPolicy denyAll = api().network().v1().networkPolicies().inNamespace(NAMESPACE).withName(name).get();
        assertThat(denyAll.getSpec().getPolicyTypes()).containsExactly("Ingress", "Egress");
        assertThat(denyAll.getSpec().getEgress()).as("the deny-all policy is never merged with an allow").isNullOrEmpty();
        NetworkPolicy toProxy = api().network().v1().networkPolicies().inNamespace(NAMESPACE).withName(name + "-egress").get();
        assertThat(toProxy.getSpec().getPodSelector().getMatchLabels()).isEqualTo(Map.of("io.sandboxfactory/session", name));
        assertThat(toProxy.getSpec().getPolicyTypes()).containsExactly("Egress");
        assertThat(toProxy.getSpec().getIngress()).isNullOrEmpty();
        assertThat(toProxy.getSpec().getEgress()).singleElement().satisfies(rule -> {
            assertThat(rule.getTo()).singleElement().satisfies(peer -> {
                assertThat(peer.getIpBlock().getCidr()).isEqualTo("10.0.0.2/32");
                assertThat(peer.getIpBlock().getExcept()).isNullOrEmpty();
                assertThat(peer.getPodSelector()).isNull();
                assertThat(peer.getNamespaceSelector()).isNull();
            });
            assertThat(rule.getPorts()).singleElement().satisfies(port -> {
                assertThat(port.getProtocol()).isEqualTo("TCP");
                assertThat(port.getPort().getIntVal()).isEqualTo(3128);
            });
        });
        assertThat(toProxy.getMetadata().getLabels()).containsEntry("io.sandboxfactory/owner", "me");

        sandbox.destroy();
        assertThat(api().network().v1().networkPolicies().inNamespace(NAMESPACE).list().getItems()).isEmpty();

        // Without the deny-all policy there is nothing for an allow to narrow (the factory refuses an allow-list there): no policy at all.
        KubernetesFactorySandbox unconfined = new KubernetesSandboxProvider().open(config().networkPolicy("none").build(), new TestContext("me",
                dir, Optional.of(cluster.client()), Optional.of(new java.net.InetSocketAddress(java.net.InetAddress.getByName("10.0.0.2"), 3128))));
        opened.add(unconfined);
        unconfined.create(FactorySandboxContext.of("open")).start();
        assertThat(api().network().v1().networkPolicies().inNamespace(NAMESPACE).list().getItems()).isEmpty();
    }

    @Test
    void destroyDeletesPodClaimAndPolicy() {
        KubernetesSandbox sandbox = open(config().build(), "me").create(FactorySandboxContext.of("gone"));
        sandbox.executeCommand("echo x > file", List.of(), CommandOptions.defaults());
        sandbox.destroy();
        String name = sandbox.name();
        assertThat(api().pods().inNamespace(NAMESPACE).withName(name).get()).isNull();
        assertThat(api().persistentVolumeClaims().inNamespace(NAMESPACE).withName(name).get()).isNull();
        assertThat(api().network().v1().networkPolicies().inNamespace(NAMESPACE).withName(name).get()).isNull();

        KubernetesSandbox fresh = open(config().build(), "me").create(FactorySandboxContext.of("gone"));
        fresh.start();
        assertThat(fresh.lastStartOutcome()).contains(StartOutcome.CREATED);
        assertThat(fresh.executeCommand("test -e file", List.of(), CommandOptions.defaults()).exitCode()).isEqualTo(1);
    }

    @Test
    void inventoryListsThisOwnersSessionsRunningOrStoppedAndRemovesThem() {
        KubernetesFactorySandbox factory = open(config().build(), "me");
        factory.create(FactorySandboxContext.of("running-one")).start();
        KubernetesSandbox stopped = factory.create(FactorySandboxContext.of("stopped-one"));
        stopped.start();
        stopped.stop();
        open(config().build(), "other").create(FactorySandboxContext.of("not-mine")).start();

        Map<String, Boolean> listed = new LinkedHashMap<>();
        for (SandboxListing listing : factory.listSandboxes()) {
            listed.put(listing.sessionId(), listing.running());
            assertThat(listing.createdAt()).isPresent();
        }
        assertThat(listed).containsOnly(Map.entry("running-one", true), Map.entry("stopped-one", false));

        SandboxListing toRemove = factory.listSandboxes().stream().filter(l -> l.sessionId().equals("stopped-one")).findFirst().orElseThrow();
        factory.removeSandbox(toRemove);
        assertThat(api().persistentVolumeClaims().inNamespace(NAMESPACE).withName(toRemove.sandboxId()).get()).isNull();
        assertThat(factory.listSandboxes()).extracting(SandboxListing::sessionId).containsExactly("running-one");

        SandboxListing foreign = new SandboxListing(names("other").forSession("not-mine"), "not-mine", true, Optional.empty());
        assertThatThrownBy(() -> factory.removeSandbox(foreign)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("it is not a sandbox of the kubernetes provider for owner 'me'");
    }

    @Test
    void podsRunAsANonRootUserWithoutCapabilitiesOrEscalationUnderTheRuntimeDefaultSeccompProfile() {
        KubernetesFactorySandbox plain = open(config().build(), "me");
        assertThat(plain.isolation()).isEqualTo("kubernetes/default");
        plain.create(FactorySandboxContext.of("plain")).start();
        var spec = api().pods().inNamespace(NAMESPACE).withName(names("me").forSession("plain")).get().getSpec();
        assertThat(spec.getRuntimeClassName()).isNull();
        assertThat(spec.getSecurityContext().getRunAsNonRoot()).isTrue();
        assertThat(spec.getSecurityContext().getRunAsUser()).isEqualTo(1000L);
        assertThat(spec.getSecurityContext().getRunAsGroup()).isEqualTo(1000L);
        assertThat(spec.getSecurityContext().getFsGroup()).as("the claim is writable to the user").isEqualTo(1000L);
        assertThat(spec.getSecurityContext().getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
        var container = spec.getContainers().get(0).getSecurityContext();
        assertThat(container.getAllowPrivilegeEscalation()).isFalse();
        assertThat(container.getPrivileged()).isFalse();
        assertThat(container.getRunAsNonRoot()).isTrue();
        assertThat(container.getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
        assertThat(container.getCapabilities().getDrop()).containsExactly("ALL");
        assertThat(container.getCapabilities().getAdd()).isEmpty();

        KubernetesFactorySandbox hardened = open(config().runAsUser(4242).addCapabilities(List.of("NET_BIND_SERVICE"))
                .runtimeClassName("gvisor").build(), "me");
        assertThat(hardened.isolation()).isEqualTo("kubernetes/gvisor");
        hardened.create(FactorySandboxContext.of("hardened")).start();
        var hardenedSpec = api().pods().inNamespace(NAMESPACE).withName(names("me").forSession("hardened")).get().getSpec();
        assertThat(hardenedSpec.getRuntimeClassName()).isEqualTo("gvisor");
        assertThat(hardenedSpec.getSecurityContext().getRunAsUser()).isEqualTo(4242L);
        assertThat(hardenedSpec.getSecurityContext().getFsGroup()).isEqualTo(4242L);
        assertThat(hardenedSpec.getContainers().get(0).getSecurityContext().getCapabilities().getAdd()).containsExactly("NET_BIND_SERVICE");
    }

    @Test
    void twoOwnersAndTwoStateDirectoriesOnOneNamespaceEachOpenSessionFix42() {
        KubernetesFactorySandbox alice = open(config().build(), "alice");
        KubernetesFactorySandbox bob = open(config().build(), "bob");
        KubernetesFactorySandbox aliceElsewhere = open(config().build(), "alice", dir.resolve("other-state"));
        List<KubernetesFactorySandbox> factories = List.of(alice, bob, aliceElsewhere);
        List<String> pods = new ArrayList<>();
        for (int i = 0; i < factories.size(); i++) {
            KubernetesSandbox sandbox = factories.get(i).create(FactorySandboxContext.of("fix-42"));
            sandbox.start();
            assertThat(sandbox.lastStartOutcome()).as("factory %d", i).contains(StartOutcome.CREATED);
            sandbox.executeCommand("printf " + i + " > whose", List.of(), CommandOptions.defaults());
            pods.add(sandbox.sandboxId().orElseThrow());
        }
        assertThat(pods).doesNotHaveDuplicates().allSatisfy(name -> assertThat(name).hasSizeLessThanOrEqualTo(63)
                .matches(ResourceNames.DNS_1123_LABEL));
        for (int i = 0; i < factories.size(); i++) {
            KubernetesSandbox again = factories.get(i).create(FactorySandboxContext.of("fix-42"));
            again.start();
            assertThat(again.executeCommand("cat whose", List.of(), CommandOptions.defaults()).stdout()).as("factory %d", i)
                    .isEqualTo(Integer.toString(i));
            assertThat(factories.get(i).listSandboxes()).as("factory %d lists only its own", i)
                    .extracting(SandboxListing::sandboxId).containsExactly(pods.get(i));
        }
    }

    @Test
    void objectsAnEarlierVersionNamedWithoutTheTenantAreStillFoundAndKept() {
        KubernetesProviderConfig config = config().build();
        String legacy = ResourceNames.legacyName("old-1");
        PersistentVolumeClaim claim = new SessionObjects(legacy, "x", "old-1", "me", config,
                SessionObjects.resources(config, SandboxResources.none()), config.workingDirectory(), Optional.empty()).claim();
        Map<String, String> labels = new LinkedHashMap<>(claim.getMetadata().getLabels());
        labels.remove(SessionLabels.TENANT);
        claim.getMetadata().setLabels(labels);
        api().persistentVolumeClaims().inNamespace(NAMESPACE).resource(claim).create();

        KubernetesFactorySandbox factory = open(config, "me");
        assertThat(factory.listSandboxes()).extracting(SandboxListing::sandboxId).containsExactly(legacy);
        KubernetesSandbox sandbox = factory.create(FactorySandboxContext.of("old-1"));
        sandbox.start();
        assertThat(sandbox.lastStartOutcome()).contains(StartOutcome.CONNECTED);
        assertThat(sandbox.sandboxId()).contains(legacy);
        assertThat(api().pods().inNamespace(NAMESPACE).withName(legacy).get()).isNotNull();
        assertThat(api().pods().inNamespace(NAMESPACE).withName(names("me").forSession("old-1")).get()).isNull();
        // Another owner's session of the same id neither adopts nor trips over it.
        KubernetesSandbox others = open(config, "you").create(FactorySandboxContext.of("old-1"));
        others.start();
        assertThat(others.lastStartOutcome()).contains(StartOutcome.CREATED);
        assertThat(others.sandboxId()).contains(names("you").forSession("old-1"));
    }

    @Test
    void commandsStreamAndReportExitCodesThroughTheStatusChannel() {
        KubernetesSandbox sandbox = open(config().env(Map.of("BASE", "b")).build(), "me").create(FactorySandboxContext.of("exec"));
        List<String> streamed = new ArrayList<>();
        CommandResult result = sandbox.executeCommand("printf out; printf err >&2; printf '%s' \"$BASE $CALL\"; exit 7", List.of(),
                CommandOptions.builder().env(Map.of("CALL", "c d")).onStdout(streamed::add).build());
        assertThat(result.exitCode()).isEqualTo(7);
        assertThat(result.stdout()).isEqualTo("outb c d");
        assertThat(result.stderr()).isEqualTo("err");
        assertThat(String.join("", streamed)).isEqualTo("outb c d");

        assertThatThrownBy(() -> sandbox.executeCommand("true", List.of(), CommandOptions.builder().cwd("/no/such/dir").build()))
                .isInstanceOf(SandboxException.class).hasMessageContaining("does not exist");
    }

    @Test
    void aCommandsVariablesReachItButNoProcessesCommandLineNorAnyExecRequest() throws Exception {
        String exposed = "exposed-" + CommandScripts.newToken();
        String setup = "setup-" + CommandScripts.newToken();
        KubernetesSandbox sandbox = open(config().build(), "me").create(FactorySandboxContext.of("secret-env"));
        sandbox.setEnv(env -> {
            env.put("GH_TOKEN", exposed);
            return env;
        });
        sandbox.start();
        Path go = dir.resolve("go");
        // The attacker: anyone on the node (or in the pod) reading every process's command line, from before the
        // exec starts until its command runs (its variables in a process's environment) and once more after.
        CompletableFuture<Boolean> attacker = CompletableFuture.supplyAsync(() -> {
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            boolean seen = false;
            while (!anyProcessFile("environ", setup) && System.nanoTime() < deadline) {
                seen |= anyProcessFile("cmdline", exposed, setup);
            }
            return seen | anyProcessFile("cmdline", exposed, setup);
        });
        CompletableFuture<CommandResult> running = CompletableFuture.supplyAsync(() -> sandbox.executeCommand(
                "while [ ! -e " + Sandboxes.quote(go.toString()) + " ]; do sleep 0.05; done; printf '%s|%s' \"$GH_TOKEN\" \"$SETUP_SECRET\"",
                List.of(), CommandOptions.builder().env(Map.of("SETUP_SECRET", setup)).timeout(Duration.ofSeconds(60)).build()));
        try {
            assertThat(attacker.get(60, TimeUnit.SECONDS)).as("a variable's value on a process's command line").isFalse();
            assertThat(anyProcessFile("environ", setup)).as("the command runs with its variables").isTrue();
        } finally {
            Files.createFile(go);
        }
        CommandResult result = running.get(60, TimeUnit.SECONDS);
        assertThat(result.stdout()).as(result.stderr()).isEqualTo(exposed + "|" + setup);
        List<String> execs = cluster.kubelet().execRequests();
        assertThat(execs).isNotEmpty().noneMatch(path -> path.contains(exposed) || path.contains(setup)
                || URLDecoder.decode(path, StandardCharsets.UTF_8).contains(exposed)
                || URLDecoder.decode(path, StandardCharsets.UTF_8).contains(setup));
    }

    /** Whether the file {@code name} (such as {@code cmdline}) of any process on this host holds one of {@code values} (ASCII). */
    private static boolean anyProcessFile(String name, String... values) {
        try (DirectoryStream<Path> processes = Files.newDirectoryStream(Path.of("/proc"), "[0-9]*")) {
            for (Path process : processes) {
                try {
                    String content = new String(Files.readAllBytes(process.resolve(name)), StandardCharsets.ISO_8859_1);
                    if (Arrays.stream(values).anyMatch(content::contains)) {
                        return true;
                    }
                } catch (IOException gone) {
                    // The process ended (or is not ours to read).
                }
            }
            return false;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void aTimeoutKillsTheWholeProcessTreeInThePod() {
        KubernetesSandbox sandbox = open(config().build(), "me").create(FactorySandboxContext.of("slow"));
        CommandResult result = sandbox.executeCommand("sleep 300 & echo $! > bg; setsid sleep 301 & echo $! > bg2; wait", List.of(),
                CommandOptions.builder().timeout(Duration.ofSeconds(1)).build());
        assertThat(result.timedOut()).isTrue();
        assertThat(result.exitCode()).isEqualTo(CommandResult.TIMEOUT_EXIT_CODE);
        // Alive means present and not a zombie: killed orphans wait for whoever reaps them on this host.
        CommandResult check = sandbox.executeCommand("for p in $(cat bg) $(cat bg2); do s=$(cut -d' ' -f3 /proc/$p/stat 2>/dev/null);"
                + " if [ -n \"$s\" ] && [ \"$s\" != Z ]; then exit 0; fi; done; exit 1", List.of(), CommandOptions.defaults());
        assertThat(check.exitCode()).as("a process of the timed-out command is still alive").isNotZero();
    }

    @Test
    void commandsADeadHostLeftRunningAreEndedByTheNextProcessThatConnectsButALiveHostsAreNot() throws Exception {
        HostProcess deadHost = DeadHosts.exited();
        KubernetesProviderConfig config = config().build();
        KubernetesFactorySandbox ofDeadHostFactory = new KubernetesFactorySandbox(config, "me", dir,
                new ClusterConnection(config, Map.of(), Optional.of(api()), dir), deadHost, Optional.empty());
        opened.add(ofDeadHostFactory);
        KubernetesSandbox ofDeadHost = ofDeadHostFactory.create(FactorySandboxContext.of("dead-host"));
        // Commands the dead host left behind: one in its own session (setsid), one in the exec's group.
        ofDeadHost.executeCommand("setsid sleep 301 >/dev/null 2>&1 & echo $! >dead; sleep 302 >/dev/null 2>&1 & echo $! >>dead",
                List.of(), CommandOptions.defaults());
        assertThat(alive(ofDeadHost, "dead")).isEqualTo(2);

        // The next process (a fresh instance, of a live host) connects to the running pod.
        KubernetesSandbox next = open(config, "me").create(FactorySandboxContext.of("dead-host"));
        next.start();
        assertThat(next.lastStartOutcome()).contains(StartOutcome.CONNECTED);
        assertThat(Polling.until(Duration.ofSeconds(10), Duration.ofMillis(50), () -> alive(next, "dead") == 0))
                .as("the dead host's commands are gone").isTrue();

        // A live host's commands survive the next connection.
        next.executeCommand("sleep 303 >/dev/null 2>&1 & echo $! >live", List.of(), CommandOptions.defaults());
        KubernetesSandbox another = open(config, "me").create(FactorySandboxContext.of("dead-host"));
        another.start();
        assertThat(alive(another, "live")).as("a live host's command is never touched").isEqualTo(1);
    }

    /** How many of the processes whose pids the file {@code pids} lists are alive: present and not a zombie. */
    private static int alive(KubernetesSandbox sandbox, String pids) {
        CommandResult count = sandbox.executeCommand("n=0; for p in $(cat " + pids + "); do s=$(cut -d' ' -f3 /proc/$p/stat 2>/dev/null);"
                + " if [ -n \"$s\" ] && [ \"$s\" != Z ]; then n=$((n + 1)); fi; done; echo $n", List.of(), CommandOptions.defaults());
        return Integer.parseInt(count.stdout().strip());
    }

    @Test
    void aPodThatIsNeverReadyFailsNamingItsLastEventAndIsRemoved() {
        KubernetesSandbox sandbox = open(config().image(FakeKubelet.UNPULLABLE_PREFIX + "missing:1").readyTimeout("2s").build(), "me")
                .create(FactorySandboxContext.of("never-ready"));
        assertThatThrownBy(sandbox::start).isInstanceOf(SandboxException.class)
                .satisfies(e -> assertThat(((SandboxException) e).code()).isEqualTo("POD_NOT_READY"))
                .hasMessageContaining("Pod '" + sandbox.name() + "' of session 'never-ready' in namespace 'sandboxes' was not Ready within 2s")
                .hasMessageContaining("ImagePullBackOff")
                .hasMessageContaining("last event Failed: Failed to pull image \"registry.invalid/missing:1\"");
        assertThat(api().pods().inNamespace(NAMESPACE).withName(sandbox.name()).get()).isNull();
    }

    @Test
    void aPodDeletedBehindTheSandboxsBackIsDestroyedForItsCommandsAndRecreatedOnTheClaim() {
        KubernetesSandbox sandbox = open(config().build(), "me").create(FactorySandboxContext.of("vanishing"));
        sandbox.executeCommand("echo still > file", List.of(), CommandOptions.defaults());
        api().pods().inNamespace(NAMESPACE).withName(sandbox.name()).delete();
        assertThatThrownBy(() -> sandbox.executeCommand("true", List.of(), CommandOptions.defaults()))
                .isInstanceOf(SandboxDestroyedException.class);
        assertThat(sandbox.executeCommand("cat file", List.of(), CommandOptions.defaults()).stdout()).isEqualTo("still\n");
    }

    @Test
    void aClosedProviderRefusesCommandsSayingTheyNeverRan() {
        KubernetesFactorySandbox factory = open(config().build(), "me");
        KubernetesSandbox sandbox = factory.create(FactorySandboxContext.of("closing"));
        sandbox.start();
        factory.close();
        assertThatThrownBy(() -> sandbox.executeCommand("true", List.of(), CommandOptions.defaults()))
                .isInstanceOfSatisfying(SandboxExecTransportException.class, e -> assertThat(e.opened()).isFalse());
        assertThatThrownBy(factory::listSandboxes).isInstanceOfSatisfying(SandboxException.class,
                e -> assertThat(e.code()).isEqualTo("PROVIDER_CLOSED")).hasMessage("The kubernetes provider instance is closed.");
    }

    @Test
    void filesMoveByTarOverExecBothWays() {
        KubernetesSandbox sandbox = open(config().build(), "me").create(FactorySandboxContext.of("files"));
        sandbox.start();
        String root = sandbox.workingDirectory().orElseThrow();
        byte[] content = "hello\u00e9\n".getBytes(StandardCharsets.UTF_8);
        List<TransferEntry> entries = List.of(TransferEntry.directory("tree", 0755), TransferEntry.file("tree/a.txt", content.length, 0640),
                TransferEntry.symlink("tree/link", "a.txt"));
        sandbox.copyIn(root, root, new FileTransferSandbox.Source() {
            @Override
            public List<TransferEntry> entries() {
                return entries;
            }

            @Override
            public InputStream open(TransferEntry file) {
                return new ByteArrayInputStream(content);
            }
        });
        assertThat(sandbox.executeCommand("cat tree/link", List.of(), CommandOptions.defaults()).stdout()).isEqualTo("hello\u00e9\n");

        Map<String, String> seen = new LinkedHashMap<>();
        sandbox.copyOut(root, root + "/tree", (entry, in) -> seen.put(entry.path(), entry.type() + ":"
                + new String(in.readAllBytes(), StandardCharsets.UTF_8) + (entry.linkTarget() == null ? "" : entry.linkTarget())));
        assertThat(seen).containsEntry("tree", "DIRECTORY:").containsEntry("tree/a.txt", "FILE:hello\u00e9\n")
                .containsEntry("tree/link", "SYMLINK:a.txt");

        assertThatThrownBy(() -> sandbox.copyOut(root, root + "/missing", (entry, in) -> { }))
                .isInstanceOfSatisfying(SandboxFileException.class, e -> assertThat(e.code()).isEqualTo(SandboxFileException.NOT_FOUND));
    }

    @Test
    void aKubeconfigFileAndContextReachTheClusterWithoutAHostClient() throws Exception {
        Path kubeconfig = dir.resolve("kubeconfig");
        String url = cluster.client().getMasterUrl().toString();
        Files.writeString(kubeconfig, String.join("\n",
                "apiVersion: v1", "kind: Config", "current-context: elsewhere",
                "clusters:", "- name: mock", "  cluster: {server: \"" + url + "\"}",
                "- name: far", "  cluster: {server: \"http://127.0.0.1:9\"}",
                "users:", "- name: u", "  user: {token: t}",
                "contexts:", "- name: mock", "  context: {cluster: mock, user: u}",
                "- name: elsewhere", "  context: {cluster: far, user: u}", ""));
        KubernetesFactorySandbox factory = new KubernetesSandboxProvider().open(
                config().kubeconfig(kubeconfig.toString()).context("mock").build(), new TestContext("me", dir, Optional.empty()));
        opened.add(factory);
        KubernetesSandbox sandbox = factory.create(FactorySandboxContext.of("via-file"));
        assertThat(sandbox.executeCommand("echo ok", List.of(), CommandOptions.defaults()).stdout()).isEqualTo("ok\n");

        KubernetesFactorySandbox missing = new KubernetesSandboxProvider().open(
                config().kubeconfig(dir.resolve("absent").toString()).build(), new TestContext("me", dir, Optional.empty()));
        opened.add(missing);
        assertThatThrownBy(missing::listSandboxes).isInstanceOf(SandboxException.class)
                .hasMessageContaining("Kubeconfig " + dir.resolve("absent") + " cannot be read");
    }
}
