package dev.polystack.runner;

import dev.polystack.runner.protocol.ClaimedJob;
import dev.polystack.runner.protocol.HeartbeatReply;
import dev.polystack.runner.protocol.JobResult;
import dev.polystack.runner.protocol.JobStatus;
import dev.polystack.runner.protocol.LogBatch;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPairGenerator;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The kubernetes-job executor against the fabric8 mock API server (CRUD mode): the test plays the kubelet,
 * creating the Job's pod, its status and its log; a recording control plane stands for the real one.
 */
// not in the fast unit lane (-Punit): it starts the fabric8 mock Kubernetes API server
@Tag("slow")
@EnableKubernetesMockClient(crud = true)
class KubernetesJobTest {

    static KubernetesMockServer server;
    static KubernetesClient client;

    @TempDir
    Path dir;

    private static final String NAMESPACE = "runners";
    private static final String STATE_PASSWORD = "state-password-0123456789";

    private final RecordingControlPlane controlPlane = new RecordingControlPlane();
    private ClaimedJob job;
    private AgentConfig config;
    private Path template;

    @BeforeEach
    void setUp() throws Exception {
        job = ControlPlane.JSON.readValue(
                """
                {"job_id": "%s", "deployment_id": "%s", "attempt": 1, "operation": "apply",
                 "resource": {"type": "postgres", "class": "default", "id": "app.db"},
                 "environment": {"org": "acme", "project": "shop", "env": "prod", "env_type": "production"},
                 "module": {"id": "pg", "version": 3, "source": "inline", "code": "output \\"host\\" { value = \\"db\\" }"},
                 "inputs": {"name": "prod-app.db", "password": "input-secret-value"}, "sensitive_inputs": ["password"],
                 "providers": [], "outputs": ["host"],
                 "state": {"address": "http://cp/api/state/v1/e/postgres/default/app.db", "lock_address": "http://cp/l",
                           "unlock_address": "http://cp/u", "username": "job", "password": "%s"},
                 "lease_seconds": 60, "heartbeat_seconds": 1}""".formatted(UUID.randomUUID(), UUID.randomUUID(), STATE_PASSWORD), ClaimedJob.class);
        template = dir.resolve("pod-template.yaml");
        Files.writeString(template, """
                metadata:
                  labels: {team: platform}
                  annotations: {cluster-autoscaler.kubernetes.io/safe-to-evict: "false"}
                spec:
                  nodeSelector: {pool: tofu}
                  containers:
                    - name: tofu
                      resources: {requests: {cpu: 500m, memory: 512Mi}, limits: {memory: 1Gi}}
                """);
        // long enough that a slow machine never times out a pod the test is about to start; the one test of the
        // timeout sets its own
        config = config("30s");
    }

    private AgentConfig config(String startTimeout) {
        return AgentConfig.load(
                List.of(
                        "--url=http://cp.example",
                        "--org=acme",
                        "--runner=k8s",
                        "--executor=kubernetes-job",
                        "--job-namespace=" + NAMESPACE,
                        "--job-image=registry.example/polystack/runner-agent:1.0",
                        "--job-pod-template=" + template,
                        "--job-start-timeout=" + startTimeout,
                        "--job-service-account=tofu-jobs"),
                Map.of("POLYSTACK_AGENT_TOFU_ENV_AWS_SECRET_ACCESS_KEY", "aws-secret-value"));
    }

    @Test
    void runsTheJobAsAKubernetesJobStreamsItsLogAndReportsTheSealedResult() throws Exception {
        CompletableFuture<Void> run = CompletableFuture.runAsync(
                () -> new KubernetesJob(config, controlPlane, job, new AtomicBoolean(), client).run());
        Job created = awaitJob();
        String name = created.getMetadata().getName();

        // the Job as the agent made it
        assertThat(name).isEqualTo("polystack-" + job.jobId());
        assertThat(created.getSpec().getBackoffLimit()).isZero();
        var podSpec = created.getSpec().getTemplate().getSpec();
        Container tofu = podSpec.getContainers().get(0);
        assertThat(tofu.getName()).isEqualTo("tofu");
        assertThat(tofu.getImage()).isEqualTo("registry.example/polystack/runner-agent:1.0");
        assertThat(tofu.getArgs()).startsWith("execute", "--payload=/polystack/job/payload.json");
        assertThat(tofu.getResources().getRequests()).containsEntry("cpu", new Quantity("500m"));
        assertThat(tofu.getSecurityContext().getRunAsNonRoot()).isTrue();
        assertThat(tofu.getSecurityContext().getReadOnlyRootFilesystem()).isTrue();
        assertThat(tofu.getSecurityContext().getCapabilities().getDrop()).containsExactly("ALL");
        assertThat(podSpec.getRestartPolicy()).isEqualTo("Never");
        assertThat(podSpec.getNodeSelector()).containsEntry("pool", "tofu");
        assertThat(podSpec.getServiceAccountName()).isEqualTo("tofu-jobs");
        assertThat(podSpec.getAutomountServiceAccountToken()).isFalse();
        // the image's user reads the 0400 payload through the pod's fsGroup
        assertThat(podSpec.getSecurityContext().getFsGroup()).isEqualTo(10001L);
        assertThat(podSpec.getSecurityContext().getRunAsNonRoot()).isTrue();
        assertThat(created.getSpec().getTemplate().getMetadata().getLabels())
                .containsEntry("team", "platform")
                .containsEntry(KubernetesJob.LABEL_JOB_ID, job.jobId().toString());
        assertThat(podSpec.getVolumes())
                .anySatisfy(v -> assertThat(v.getSecret().getSecretName()).isEqualTo(name));
        // secrets live only in the Secret, never in the Job
        String jobYaml = Serialization.asYaml(created);
        assertThat(jobYaml)
                .doesNotContain(STATE_PASSWORD)
                .doesNotContain("input-secret-value")
                .doesNotContain("aws-secret-value");

        Secret secret = awaitSecretOwnedByTheJob(name, created.getMetadata().getUid());
        PodExecution.Payload payload = ControlPlane.JSON.readValue(
                Base64.getDecoder()
                        .decode(
                                secret.getData() != null && secret.getData().containsKey(KubernetesJob.PAYLOAD_KEY)
                                        ? secret.getData().get(KubernetesJob.PAYLOAD_KEY)
                                        : Base64.getEncoder()
                                                .encodeToString(secret.getStringData()
                                                        .get(KubernetesJob.PAYLOAD_KEY)
                                                        .getBytes())),
                PodExecution.Payload.class);
        assertThat(payload.job().jobId()).isEqualTo(job.jobId());
        assertThat(payload.tofuEnvironment()).containsEntry("AWS_SECRET_ACCESS_KEY", "aws-secret-value");

        // the kubelet: the pod ran and printed tofu's lines and the sealed result
        JobResult result = new JobResult(
                JobStatus.SUCCEEDED,
                Map.of("host", new JobResult.Output(ControlPlane.JSON.valueToTree("db"), false)),
                List.of(),
                new JobResult.PlanSummary(1, 0, 0),
                null);
        String log = """
                {"@level":"info","@message":"Apply complete! Resources: 1 added, 0 changed, 0 destroyed.","type":"apply_summary"}
                job succeeded
                """ + PodExecution.RESULT_PREFIX
                + SealedResult.seal(ControlPlane.JSON.writeValueAsBytes(result), payload.resultKey()) + "\n";
        startPod(name, "Succeeded", log);

        run.get(30, TimeUnit.SECONDS);
        assertThat(controlPlane.results).hasSize(1);
        JobResult reported = controlPlane.results.get(0);
        assertThat(reported.status()).isEqualTo(JobStatus.SUCCEEDED);
        assertThat(reported.outputs().get("host").value().asText()).isEqualTo("db");
        assertThat(controlPlane.messages())
                .contains("Apply complete! Resources: 1 added, 0 changed, 0 destroyed.", "job succeeded");
        assertThat(controlPlane.messages()).noneMatch(m -> m.startsWith(PodExecution.RESULT_PREFIX.trim()));
        // cleaned up
        assertThat(client.batch()
                        .v1()
                        .jobs()
                        .inNamespace(NAMESPACE)
                        .withName(name)
                        .get())
                .isNull();
        assertThat(client.secrets().inNamespace(NAMESPACE).withName(name).get()).isNull();
    }

    @Test
    void aCancelWhileThePodWaitsToBeScheduledDeletesTheJobAndIsReportedAsCancelled() throws Exception {
        CompletableFuture<Void> run = CompletableFuture.runAsync(
                () -> new KubernetesJob(config, controlPlane, job, new AtomicBoolean(), client).run());
        String name = awaitJob().getMetadata().getName();
        startPod(name, "Pending", null);
        Thread.sleep(1500);
        controlPlane.cancelled = true;
        run.get(30, TimeUnit.SECONDS);
        assertThat(controlPlane.results)
                .singleElement()
                .satisfies(r -> assertThat(r.status()).isEqualTo(JobStatus.CANCELLED));
        assertThat(client.batch()
                        .v1()
                        .jobs()
                        .inNamespace(NAMESPACE)
                        .withName(name)
                        .get())
                .isNull();
        assertThat(client.secrets().inNamespace(NAMESPACE).withName(name).get()).isNull();
    }

    @Test
    void aPodThatCannotPullItsImageFailsTheJobWithTheReason() throws Exception {
        CompletableFuture<Void> run = CompletableFuture.runAsync(
                () -> new KubernetesJob(config, controlPlane, job, new AtomicBoolean(), client).run());
        String name = awaitJob().getMetadata().getName();
        client.pods()
                .inNamespace(NAMESPACE)
                .resource(new PodBuilder()
                        .withNewMetadata()
                        .withName(name + "-x1")
                        .addToLabels("job-name", name)
                        .endMetadata()
                        .withNewStatus()
                        .withPhase("Pending")
                        .addNewContainerStatus()
                        .withName("tofu")
                        .withNewState()
                        .withNewWaiting()
                        .withReason("ErrImagePull")
                        .withMessage("manifest unknown")
                        .endWaiting()
                        .endState()
                        .endContainerStatus()
                        .endStatus()
                        .build())
                .create();
        run.get(30, TimeUnit.SECONDS);
        JobResult reported = controlPlane.results.get(0);
        assertThat(reported.status()).isEqualTo(JobStatus.FAILED);
        assertThat(reported.error().summary())
                .contains("cannot start")
                .contains("ErrImagePull")
                .contains("manifest unknown");
        assertThat(client.batch()
                        .v1()
                        .jobs()
                        .inNamespace(NAMESPACE)
                        .withName(name)
                        .get())
                .isNull();
    }

    @Test
    void aPodThatEndsWithoutAResultFailsWithHowItEnded() throws Exception {
        CompletableFuture<Void> run = CompletableFuture.runAsync(
                () -> new KubernetesJob(config, controlPlane, job, new AtomicBoolean(), client).run());
        String name = awaitJob().getMetadata().getName();
        Pod pod = startPod(name, "Failed", "Initializing the backend...\n");
        client.pods()
                .inNamespace(NAMESPACE)
                .withName(pod.getMetadata().getName())
                .editStatus(p -> new PodBuilder(p)
                        .editStatus()
                        .addNewContainerStatus()
                        .withName("tofu")
                        .withNewState()
                        .withNewTerminated()
                        .withReason("OOMKilled")
                        .withExitCode(137)
                        .endTerminated()
                        .endState()
                        .endContainerStatus()
                        .endStatus()
                        .build());
        run.get(30, TimeUnit.SECONDS);
        JobResult reported = controlPlane.results.get(0);
        assertThat(reported.status()).isEqualTo(JobStatus.FAILED);
        assertThat(reported.error().summary())
                .contains("ended without a result")
                .contains("OOMKilled")
                .contains("137");
        assertThat(controlPlane.messages()).contains("Initializing the backend...");
    }

    @Test
    void aPodNeverScheduledTimesOut() throws Exception {
        new KubernetesJob(config("5s"), controlPlane, job, new AtomicBoolean(), client).run();
        assertThat(controlPlane.results.get(0).error().summary())
                .contains("did not start within 5 s")
                .contains("no pod was created");
    }

    private Job awaitJob() throws InterruptedException {
        for (int i = 0; i < 100; i++) {
            List<Job> jobs =
                    client.batch().v1().jobs().inNamespace(NAMESPACE).list().getItems();
            if (!jobs.isEmpty()) {
                return jobs.get(0);
            }
            Thread.sleep(100);
        }
        throw new AssertionError("no Job was created");
    }

    private Secret awaitSecretOwnedByTheJob(String name, String uid) throws InterruptedException {
        for (int i = 0; i < 100; i++) {
            Secret secret =
                    client.secrets().inNamespace(NAMESPACE).withName(name).get();
            if (secret != null
                    && secret.getMetadata().getOwnerReferences() != null
                    && !secret.getMetadata().getOwnerReferences().isEmpty()) {
                assertThat(secret.getMetadata().getOwnerReferences().get(0).getUid())
                        .isEqualTo(uid);
                assertThat(secret.getMetadata().getOwnerReferences().get(0).getKind())
                        .isEqualTo("Job");
                return secret;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("no Secret owned by the Job");
    }

    /** Creates the Job's pod in a phase, with a log when given. */
    private Pod startPod(String job, String phase, String log) {
        Pod pod = client.pods()
                .inNamespace(NAMESPACE)
                .resource(new PodBuilder()
                        .withNewMetadata()
                        .withName(job + "-abcde")
                        .addToLabels("job-name", job)
                        .endMetadata()
                        .withNewStatus()
                        .withPhase(phase)
                        .endStatus()
                        .build())
                .create();
        if (log != null) {
            server.expect()
                    .get()
                    .withPath(logPath(pod.getMetadata().getName()))
                    .andReturn(200, log)
                    .always();
        }
        return pod;
    }

    private static String logPath(String pod) {
        return "/api/v1/namespaces/" + NAMESPACE + "/pods/" + pod + "/log?pretty=false&container=tofu&follow=true";
    }

    /** Stands for the control plane: records logs and results, answers heartbeats. */
    static final class RecordingControlPlane extends ControlPlane {
        final List<JobResult> results = new CopyOnWriteArrayList<>();
        final List<LogBatch> batches = new CopyOnWriteArrayList<>();
        volatile boolean cancelled;

        RecordingControlPlane() {
            super(URI.create("http://cp.example"), "acme", "k8s", "polystack", newKey());
        }

        private static java.security.PrivateKey newKey() {
            try {
                return KeyPairGenerator.getInstance("Ed25519").generateKeyPair().getPrivate();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }

        List<String> messages() {
            List<String> messages = new ArrayList<>();
            batches.forEach(b -> b.lines().forEach(l -> messages.add(l.message())));
            return messages;
        }

        @Override
        public Optional<ClaimedJob> claim(Duration wait) {
            return Optional.empty();
        }

        @Override
        public HeartbeatReply heartbeat(UUID job) {
            return new HeartbeatReply(cancelled, Instant.now().plusSeconds(60));
        }

        @Override
        public void logs(UUID job, LogBatch batch) {
            batches.add(batch);
        }

        @Override
        public Optional<ClaimedJob> resultAndNext(UUID job, JobResult result, boolean next) {
            results.add(result);
            return Optional.empty();
        }
    }
}
