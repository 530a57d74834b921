package dev.polystack.runner;

import dev.polystack.runner.protocol.ClaimedJob;
import dev.polystack.runner.protocol.JobResult;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.ContainerStateWaiting;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.PodSecurityContextBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.SecurityContextBuilder;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.LogWatch;
import io.fabric8.kubernetes.client.utils.Serialization;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Logger;

/**
 * A job run as a Kubernetes Job: the claimed job goes into a Secret owned by the Job, the pod runs
 * {@code execute} (tofu inside the pod), the agent streams the pod's log to the control plane, reads the
 * sealed result from its last line, deletes the Job on cancel, and cleans up. The pod never holds the
 * runner's key.
 */
public final class KubernetesJob extends JobSupervisor {

    private static final Logger LOG = Logger.getLogger(KubernetesJob.class.getName());
    static final String CONTAINER = "tofu";
    static final String PAYLOAD_KEY = "payload.json";
    static final String PAYLOAD_DIR = "/polystack/job";
    static final String LABEL_JOB_ID = "polystack.dev/job-id";
    static final String LABEL_RUNNER = "polystack.dev/runner";
    private static final Set<String> START_FAILURES = Set.of(
            "ErrImagePull",
            "ImagePullBackOff",
            "InvalidImageName",
            "CreateContainerConfigError",
            "CreateContainerError");

    private final KubernetesClient kube;
    private final AgentConfig.Kubernetes settings;
    private final String name;

    public KubernetesJob(
            AgentConfig config,
            ControlPlane controlPlane,
            ClaimedJob job,
            AtomicBoolean shutdown,
            KubernetesClient kube) {
        super(config, controlPlane, job, shutdown);
        this.kube = kube;
        this.settings = config.kubernetes();
        this.name = "polystack-" + job.jobId();
    }

    /** A job that could not start or ended without a result. */
    private static final class PodProblem extends Exception {
        PodProblem(String message) {
            super(message);
        }
    }

    @Override
    protected JobResult execute() {
        String key = SealedResult.newKey();
        JobResult result;
        try (LogShipper logs = new LogShipper(controlPlane, job.jobId())) {
            try {
                kube.secrets()
                        .inNamespace(settings.namespace())
                        .resource(secret(key))
                        .create();
                Job created = kube.batch()
                        .v1()
                        .jobs()
                        .inNamespace(settings.namespace())
                        .resource(job())
                        .create();
                // the Secret is the Job's: Kubernetes removes it with the Job even if this agent is gone
                kube.secrets()
                        .inNamespace(settings.namespace())
                        .withName(name)
                        .edit(s -> new SecretBuilder(s)
                                .editMetadata()
                                .addToOwnerReferences(new OwnerReferenceBuilder()
                                        .withApiVersion("batch/v1")
                                        .withKind("Job")
                                        .withName(name)
                                        .withUid(created.getMetadata().getUid())
                                        .withBlockOwnerDeletion(false)
                                        .build())
                                .endMetadata()
                                .build());
                logs.note("started Kubernetes Job " + settings.namespace() + "/" + name);
                result = follow(key, logs);
            } catch (PodProblem e) {
                result = JobResult.failed(e.getMessage(), null, null);
            } catch (KubernetesClientException e) {
                result = isCancelled()
                        ? JobResult.cancelled(cancelReason())
                        : JobResult.failed("the Kubernetes Job could not be run", describe(e), null);
            } catch (IOException e) {
                result = JobResult.failed("the Kubernetes Job could not be run", e.getMessage(), null);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                result = JobResult.cancelled("the agent was interrupted");
            }
            logs.note("job " + result.status());
        } finally {
            cleanUp();
        }
        return result;
    }

    private JobResult follow(String key, LogShipper logs) throws PodProblem, InterruptedException {
        Optional<Pod> started = awaitStart();
        if (started.isEmpty()) {
            return JobResult.cancelled(cancelReason());
        }
        String pod = started.get().getMetadata().getName();
        AtomicReference<JobResult> sealed = new AtomicReference<>();
        AtomicReference<String> unreadable = new AtomicReference<>();
        LogWatch watch = kube.pods()
                .inNamespace(settings.namespace())
                .withName(pod)
                .inContainer(CONTAINER)
                .watchLog();
        Thread reader = new Thread(
                () -> {
                    try (BufferedReader lines =
                            new BufferedReader(new InputStreamReader(watch.getOutput(), StandardCharsets.UTF_8))) {
                        String line;
                        while ((line = lines.readLine()) != null) {
                            if (line.startsWith(PodExecution.RESULT_PREFIX)) {
                                try {
                                    sealed.set(ControlPlane.JSON.readValue(
                                            SealedResult.open(line.substring(PodExecution.RESULT_PREFIX.length()), key),
                                            JobResult.class));
                                } catch (GeneralSecurityException | IOException e) {
                                    unreadable.set("its result line could not be opened with the job's key: "
                                            + e.getMessage());
                                }
                            } else {
                                logs.line(line);
                            }
                        }
                    } catch (IOException e) {
                        if (!isCancelled()) {
                            LOG.warning("reading the log of pod " + pod + " failed: " + e.getMessage());
                        }
                    }
                },
                "pod-log-" + job.jobId());
        reader.setDaemon(true);
        reader.start();
        try {
            while (reader.isAlive()) {
                if (isCancelled()) {
                    stopJob();
                    return JobResult.cancelled(cancelReason());
                }
                reader.join(500);
            }
        } finally {
            watch.close();
        }
        if (sealed.get() != null) {
            return sealed.get();
        }
        throw new PodProblem("the job pod " + pod + " ended without a result: "
                + (unreadable.get() != null ? unreadable.get() : termination(pod)));
    }

    /** Waits until the job's pod runs or has ended; empty when the job was cancelled meanwhile. */
    private Optional<Pod> awaitStart() throws PodProblem, InterruptedException {
        long deadline = System.nanoTime() + settings.startTimeout().toNanos();
        String waiting = "no pod was created";
        while (System.nanoTime() < deadline) {
            if (isCancelled()) {
                stopJob();
                return Optional.empty();
            }
            List<Pod> pods = kube.pods()
                    .inNamespace(settings.namespace())
                    .withLabel("job-name", name)
                    .list()
                    .getItems();
            for (Pod pod : pods) {
                String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
                if ("Running".equals(phase) || "Succeeded".equals(phase) || "Failed".equals(phase)) {
                    return Optional.of(pod);
                }
                for (ContainerStatus status : containerStatuses(pod)) {
                    ContainerStateWaiting state =
                            status.getState() == null ? null : status.getState().getWaiting();
                    if (state != null && state.getReason() != null) {
                        waiting = state.getReason() + (state.getMessage() == null ? "" : ": " + state.getMessage());
                        if (START_FAILURES.contains(state.getReason())) {
                            throw new PodProblem(
                                    "the job pod " + pod.getMetadata().getName() + " cannot start: " + waiting);
                        }
                    }
                }
                if (waiting.equals("no pod was created")) {
                    waiting = "the pod is " + (phase == null ? "pending" : phase.toLowerCase(Locale.ROOT));
                }
            }
            Thread.sleep(1000);
        }
        throw new PodProblem(
                "the job pod did not start within " + settings.startTimeout().toSeconds() + " s (" + waiting + ")");
    }

    private static List<ContainerStatus> containerStatuses(Pod pod) {
        return pod.getStatus() == null || pod.getStatus().getContainerStatuses() == null
                ? List.of()
                : pod.getStatus().getContainerStatuses();
    }

    /** Why a pod's tofu container ended, in words. */
    private String termination(String pod) {
        Pod current =
                kube.pods().inNamespace(settings.namespace()).withName(pod).get();
        if (current == null) {
            return "the pod is gone";
        }
        for (ContainerStatus status : containerStatuses(current)) {
            ContainerStateTerminated terminated =
                    status.getState() == null ? null : status.getState().getTerminated();
            if (CONTAINER.equals(status.getName()) && terminated != null) {
                return "container " + CONTAINER + " terminated"
                        + (terminated.getReason() == null ? "" : " (" + terminated.getReason() + ")")
                        + " with exit code " + terminated.getExitCode()
                        + (terminated.getMessage() == null ? "" : ": " + terminated.getMessage());
            }
        }
        return "pod phase "
                + (current.getStatus() == null ? "unknown" : current.getStatus().getPhase());
    }

    /** Deletes the Job and its pod: the pod gets SIGTERM, tofu is interrupted. */
    private void stopJob() {
        try {
            kube.batch()
                    .v1()
                    .jobs()
                    .inNamespace(settings.namespace())
                    .withName(name)
                    .withPropagationPolicy(DeletionPropagation.BACKGROUND)
                    .delete();
        } catch (KubernetesClientException e) {
            LOG.warning("could not delete Job " + name + " to cancel it: " + describe(e));
        }
    }

    private void cleanUp() {
        if (config.keepWorkDirs()) {
            LOG.info("keeping Job " + settings.namespace() + "/" + name + " (keep-work-dirs)");
            return;
        }
        try {
            kube.batch()
                    .v1()
                    .jobs()
                    .inNamespace(settings.namespace())
                    .withName(name)
                    .withPropagationPolicy(DeletionPropagation.BACKGROUND)
                    .delete();
            kube.secrets().inNamespace(settings.namespace()).withName(name).delete();
        } catch (KubernetesClientException e) {
            LOG.warning("could not clean up Job " + name + " (Kubernetes removes it after "
                    + settings.ttl().toSeconds() + " s): " + describe(e));
        }
    }

    Secret secret(String key) throws IOException {
        PodExecution.Payload payload = new PodExecution.Payload(
                job,
                config.tofuEnvironment(),
                config.cliConfig() == null ? null : Files.readString(config.cliConfig()),
                key);
        return new SecretBuilder()
                .withMetadata(metadata(Map.of()))
                .withType("Opaque")
                .addToStringData(PAYLOAD_KEY, ControlPlane.JSON.writeValueAsString(payload))
                .build();
    }

    /** The Job: the pod template's metadata and spec, with the tofu container, its volumes and a restrictive default security context. */
    Job job() throws IOException {
        Pod template = new Pod();
        if (settings.podTemplate() != null) {
            try (InputStream in = Files.newInputStream(settings.podTemplate())) {
                template = Serialization.unmarshal(in, Pod.class);
            }
        }
        PodSpec spec = template.getSpec() == null ? new PodSpec() : template.getSpec();
        Map<String, String> labels = new HashMap<>(
                template.getMetadata() == null || template.getMetadata().getLabels() == null
                        ? Map.of()
                        : template.getMetadata().getLabels());
        Map<String, String> annotations =
                template.getMetadata() == null || template.getMetadata().getAnnotations() == null
                        ? Map.of()
                        : template.getMetadata().getAnnotations();

        List<Container> containers = new ArrayList<>(spec.getContainers() == null ? List.of() : spec.getContainers());
        Container base = containers.stream()
                .filter(c -> CONTAINER.equals(c.getName()))
                .findFirst()
                .orElse(new Container());
        containers.remove(base);
        List<VolumeMount> mounts = new ArrayList<>(base.getVolumeMounts() == null ? List.of() : base.getVolumeMounts());
        mounts.add(new VolumeMountBuilder()
                .withName("payload")
                .withMountPath(PAYLOAD_DIR)
                .withReadOnly(true)
                .build());
        addMountUnlessPresent(mounts, "work", "/polystack/work");
        addMountUnlessPresent(mounts, "plugins", "/polystack/plugins");
        addMountUnlessPresent(mounts, "tmp", "/tmp");
        Container tofu = new ContainerBuilder(base)
                .withName(CONTAINER)
                .withImage(settings.image())
                .withArgs(
                        "execute",
                        "--payload=" + PAYLOAD_DIR + "/" + PAYLOAD_KEY,
                        "--work-dir=/polystack/work",
                        "--plugin-cache-dir=/polystack/plugins",
                        "--tofu=" + (config.tofu() == null ? "tofu" : config.tofu()),
                        "--cancel-grace=" + config.cancelGrace().toSeconds() + "s")
                .withVolumeMounts(mounts)
                .withSecurityContext(base.getSecurityContext() != null ? base.getSecurityContext() : restrictive())
                .build();
        containers.add(0, tofu);

        List<Volume> volumes = new ArrayList<>(spec.getVolumes() == null ? List.of() : spec.getVolumes());
        volumes.add(new VolumeBuilder()
                .withName("payload")
                .withNewSecret()
                .withSecretName(name)
                .withDefaultMode(0400)
                .endSecret()
                .build());
        for (String emptyDir : List.of("work", "plugins", "tmp")) {
            if (volumes.stream().noneMatch(v -> emptyDir.equals(v.getName()))) {
                volumes.add(new VolumeBuilder()
                        .withName(emptyDir)
                        .withNewEmptyDir()
                        .endEmptyDir()
                        .build());
            }
        }
        labels.putAll(ownLabels());
        return new JobBuilder()
                .withMetadata(metadata(Map.of()))
                .withNewSpec()
                .withBackoffLimit(0)
                .withTtlSecondsAfterFinished((int) settings.ttl().toSeconds())
                .withNewTemplate()
                .withNewMetadata()
                .withLabels(labels)
                .withAnnotations(annotations)
                .endMetadata()
                .withSpec(new PodSpecBuilder(spec)
                        .withRestartPolicy("Never")
                        .withContainers(containers)
                        .withVolumes(volumes)
                        .withServiceAccountName(
                                settings.serviceAccount() != null
                                        ? settings.serviceAccount()
                                        : spec.getServiceAccountName())
                        .withAutomountServiceAccountToken(
                                spec.getAutomountServiceAccountToken() != null
                                        ? spec.getAutomountServiceAccountToken()
                                        : Boolean.FALSE)
                        .withSecurityContext(
                                spec.getSecurityContext() != null ? spec.getSecurityContext() : restrictivePod())
                        .build())
                .endTemplate()
                .endSpec()
                .build();
    }

    private static void addMountUnlessPresent(List<VolumeMount> mounts, String volume, String path) {
        if (mounts.stream().noneMatch(m -> volume.equals(m.getName()) || path.equals(m.getMountPath()))) {
            mounts.add(new VolumeMountBuilder()
                    .withName(volume)
                    .withMountPath(path)
                    .build());
        }
    }

    /** The runner image's user (10001) reads the job's Secret through its group. */
    private static PodSecurityContext restrictivePod() {
        return new PodSecurityContextBuilder()
                .withRunAsNonRoot(true)
                .withRunAsUser(10001L)
                .withRunAsGroup(10001L)
                .withFsGroup(10001L)
                .withNewSeccompProfile()
                .withType("RuntimeDefault")
                .endSeccompProfile()
                .build();
    }

    private static SecurityContext restrictive() {
        return new SecurityContextBuilder()
                .withRunAsNonRoot(true)
                .withAllowPrivilegeEscalation(false)
                .withReadOnlyRootFilesystem(true)
                .withNewCapabilities()
                .withDrop("ALL")
                .endCapabilities()
                .withNewSeccompProfile()
                .withType("RuntimeDefault")
                .endSeccompProfile()
                .build();
    }

    private ObjectMeta metadata(Map<String, String> extra) {
        Map<String, String> labels = new HashMap<>(ownLabels());
        labels.putAll(extra);
        ObjectMeta meta = new ObjectMeta();
        meta.setName(name);
        meta.setNamespace(settings.namespace());
        meta.setLabels(labels);
        return meta;
    }

    private Map<String, String> ownLabels() {
        return Map.of(
                "app.kubernetes.io/managed-by",
                "polystack-runner-agent",
                LABEL_JOB_ID,
                job.jobId().toString(),
                LABEL_RUNNER,
                config.runner());
    }

    private static String describe(KubernetesClientException e) {
        return e.getStatus() != null && e.getStatus().getMessage() != null
                ? e.getCode() + " " + e.getStatus().getMessage()
                : e.getMessage();
    }
}
