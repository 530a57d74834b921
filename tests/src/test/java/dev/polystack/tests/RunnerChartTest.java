package dev.polystack.tests;

import com.marcnuri.helm.LintResult;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.VolumeProjection;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static dev.polystack.tests.HelmCharts.KUBERNETES;
import static dev.polystack.tests.HelmCharts.NAMESPACE;
import static dev.polystack.tests.HelmCharts.RUNNER;
import static dev.polystack.tests.HelmCharts.Rendered;
import static dev.polystack.tests.HelmCharts.YAML;
import static dev.polystack.tests.HelmCharts.assertRestrictedContainer;
import static dev.polystack.tests.HelmCharts.assertRestrictedPod;
import static dev.polystack.tests.HelmCharts.assertSecretRef;
import static dev.polystack.tests.HelmCharts.assertStrictlyTyped;
import static dev.polystack.tests.HelmCharts.decoded;
import static dev.polystack.tests.HelmCharts.env;
import static dev.polystack.tests.HelmCharts.lint;
import static dev.polystack.tests.HelmCharts.mounts;
import static dev.polystack.tests.HelmCharts.privateKeyPem;
import static dev.polystack.tests.HelmCharts.render;
import static dev.polystack.tests.HelmCharts.resource;
import static dev.polystack.tests.HelmCharts.rules;
import static dev.polystack.tests.HelmCharts.values;
import static dev.polystack.tests.HelmCharts.volume;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The runner's chart, {@code helm/polystack-runner}, in both modes (jobs in the agent's process, or as
 * Kubernetes Jobs), linted and rendered with the embedded Helm: its objects, RBAC, key material and the
 * values that must be given.
 */
class RunnerChartTest {

    @TempDir
    Path temp;

    @Test
    void runnerChartLintsStrictlyInBothModes() throws Exception {
        Map<String, Object> required = Map.of(
                "url",
                "http://polystack.polystack.svc",
                "org",
                "acme",
                "runner",
                "eu-agent",
                "privateKey",
                Map.of("value", privateKeyPem()));
        LintResult process = lint(temp, RUNNER, required);
        assertThat(process.isFailed())
                .as("lint --strict: %s", process.getMessages())
                .isFalse();
        Map<String, Object> jobs = new LinkedHashMap<>(required);
        jobs.put("mode", "kubernetes-job");
        LintResult kubernetesJob = lint(temp, RUNNER, jobs);
        assertThat(kubernetesJob.isFailed())
                .as("lint --strict: %s", kubernetesJob.getMessages())
                .isFalse();
        assertThat(kubernetesJob.getMessages())
                .noneMatch(message -> message.contains("[WARNING]") || message.contains("[ERROR]"));
    }

    @Test
    void runnerInProcessMode() throws Exception {
        String pem = privateKeyPem();
        Path values = temp.resolve("runner.yaml");
        YAML.writeValue(values.toFile(), Map.of("privateKey", Map.of("value", pem)));
        Rendered rendered = render(
                RUNNER,
                template -> template.withValuesFile(values)
                        .set("url", "http://polystack.polystack.svc")
                        .set("org", "acme")
                        .set("runner", "eu-agent")
                        .set("tofuEnv.AWS_REGION", "eu-west-1"));
        String name = "acme-polystack-runner";
        assertThat(rendered.names())
                .containsExactlyInAnyOrder("ServiceAccount/" + name, "Secret/" + name, "Deployment/" + name);
        assertThat(rendered.get(ServiceAccount.class, name).getAutomountServiceAccountToken())
                .isFalse();
        assertThat(decoded(rendered.get(Secret.class, name))).containsOnly(Map.entry("runner.key", pem));

        Deployment deployment = rendered.get(Deployment.class, name);
        assertThat(deployment.getSpec().getReplicas()).isEqualTo(1);
        PodSpec pod = deployment.getSpec().getTemplate().getSpec();
        assertThat(pod.getAutomountServiceAccountToken()).isFalse();
        assertRestrictedPod(pod.getSecurityContext());
        Container agent = pod.getContainers().get(0);
        assertThat(agent.getImage()).isEqualTo("polystack/runner-agent:0.1.0");
        assertThat(agent.getArgs()).containsExactly("run");
        assertRestrictedContainer(agent.getSecurityContext());

        Map<String, EnvVar> env = env(agent);
        assertThat(values(env))
                .containsEntry("POLYSTACK_AGENT_URL", "http://polystack.polystack.svc")
                .containsEntry("POLYSTACK_AGENT_ORG", "acme")
                .containsEntry("POLYSTACK_AGENT_RUNNER", "eu-agent")
                .containsEntry("POLYSTACK_AGENT_MAX_JOBS", "1")
                .containsEntry("POLYSTACK_AGENT_KEY_FILE", "/etc/polystack-agent/runner.key")
                .containsEntry("POLYSTACK_AGENT_WORK_DIR", "/var/lib/polystack-agent/work")
                .containsEntry("POLYSTACK_AGENT_PLUGIN_CACHE_DIR", "/var/lib/polystack-agent/plugin-cache")
                .containsEntry("POLYSTACK_AGENT_TOFU_ENV_AWS_REGION", "eu-west-1");
        // the agent refuses job-* settings unless executor=kubernetes-job
        assertThat(env.keySet())
                .noneMatch(variable -> variable.startsWith("POLYSTACK_AGENT_JOB_")
                        || variable.equals("POLYSTACK_AGENT_EXECUTOR")
                        || variable.equals("POLYSTACK_AGENT_CLI_CONFIG"));

        assertThat(mounts(agent))
                .containsOnly(
                        Map.entry("config", "/etc/polystack-agent"),
                        Map.entry("home", "/var/lib/polystack-agent"),
                        Map.entry("work", "/var/lib/polystack-agent/work"),
                        Map.entry("plugin-cache", "/var/lib/polystack-agent/plugin-cache"),
                        Map.entry("tmp", "/tmp"));
        assertThat(agent.getVolumeMounts())
                .filteredOn(mount -> mount.getName().equals("config"))
                .singleElement()
                .satisfies(mount -> assertThat(mount.getReadOnly()).isTrue());
        List<VolumeProjection> sources = volume(pod, "config").getProjected().getSources();
        assertThat(sources).singleElement().satisfies(source -> {
            assertThat(source.getSecret().getName()).isEqualTo(name);
            assertThat(source.getSecret().getItems()).singleElement().satisfies(item -> {
                assertThat(item.getKey()).isEqualTo("runner.key");
                assertThat(item.getPath()).isEqualTo("runner.key");
                assertThat(item.getMode()).isEqualTo(0400);
            });
        });
        for (String emptyDir : List.of("home", "work", "plugin-cache", "tmp")) {
            assertThat(volume(pod, emptyDir).getEmptyDir()).as(emptyDir).isNotNull();
        }
    }

    @Test
    void runnerInKubernetesJobMode() {
        Rendered rendered = render(
                RUNNER, template -> template.withValuesFile(resource("helm/polystack-runner-kubernetes-job.yaml")));
        String name = "acme-polystack-runner";
        // the key comes from an existing Secret: no Secret of the chart's own
        assertThat(rendered.names())
                .containsExactlyInAnyOrder(
                        "ServiceAccount/" + name,
                        "ConfigMap/" + name,
                        "Role/" + name,
                        "RoleBinding/" + name,
                        "Deployment/" + name);
        assertThat(rendered.get(ServiceAccount.class, name).getAutomountServiceAccountToken())
                .isTrue();

        Role role = rendered.get(Role.class, name);
        assertThat(role.getMetadata().getNamespace()).isEqualTo("polystack-jobs");
        assertThat(rules(role))
                .containsOnly(
                        Map.entry("batch/jobs", Set.of("create", "get", "list", "watch", "delete")),
                        Map.entry("/pods", Set.of("get", "list", "watch")),
                        Map.entry("/pods/log", Set.of("get")),
                        Map.entry("/secrets", Set.of("create", "get", "patch", "delete")));
        RoleBinding binding = rendered.get(RoleBinding.class, name);
        assertThat(binding.getMetadata().getNamespace()).isEqualTo("polystack-jobs");
        assertThat(binding.getRoleRef().getKind()).isEqualTo("Role");
        assertThat(binding.getRoleRef().getName()).isEqualTo(name);
        assertThat(binding.getSubjects()).singleElement().satisfies(subject -> {
            assertThat(subject.getKind()).isEqualTo("ServiceAccount");
            assertThat(subject.getName()).isEqualTo(name);
            assertThat(subject.getNamespace()).isEqualTo(NAMESPACE);
        });

        PodSpec pod =
                rendered.get(Deployment.class, name).getSpec().getTemplate().getSpec();
        assertThat(pod.getServiceAccountName()).isEqualTo(name);
        assertThat(pod.getAutomountServiceAccountToken()).isTrue();
        Container agent = pod.getContainers().get(0);
        Map<String, EnvVar> env = env(agent);
        assertThat(values(env))
                .containsEntry("POLYSTACK_AGENT_EXECUTOR", "kubernetes-job")
                .containsEntry("POLYSTACK_AGENT_JOB_NAMESPACE", "polystack-jobs")
                .containsEntry("POLYSTACK_AGENT_JOB_IMAGE", "polystack/runner-agent:0.1.0")
                .containsEntry("POLYSTACK_AGENT_JOB_POD_TEMPLATE", "/etc/polystack-agent/pod-template.yaml")
                .containsEntry("POLYSTACK_AGENT_JOB_SERVICE_ACCOUNT", "tofu-jobs")
                .containsEntry("POLYSTACK_AGENT_JOB_TTL", "30m")
                .containsEntry("POLYSTACK_AGENT_CLI_CONFIG", "/etc/polystack-agent/cli-config.tfrc")
                .containsEntry("POLYSTACK_AGENT_MAX_JOBS", "4")
                .containsEntry("POLYSTACK_AGENT_CANCEL_GRACE", "45s")
                .containsEntry("POLYSTACK_AGENT_TOFU_ENV_AWS_REGION", "eu-west-1");
        assertThat(env).doesNotContainKey("POLYSTACK_AGENT_JOB_START_TIMEOUT");
        assertSecretRef(env.get("POLYSTACK_AGENT_TOFU_ENV_AWS_ACCESS_KEY_ID"), "aws-credentials", "access-key-id");
        assertSecretRef(
                env.get("POLYSTACK_AGENT_TOFU_ENV_AWS_SECRET_ACCESS_KEY"), "aws-credentials", "secret-access-key");

        List<VolumeProjection> sources = volume(pod, "config").getProjected().getSources();
        assertThat(sources).hasSize(2);
        assertThat(sources.get(0).getSecret().getName()).isEqualTo("eu-agent-key");
        assertThat(sources.get(0).getSecret().getItems()).singleElement().satisfies(item -> {
            assertThat(item.getKey()).isEqualTo("private.pem");
            assertThat(item.getPath()).isEqualTo("runner.key");
            assertThat(item.getMode()).isEqualTo(0400);
        });
        assertThat(sources.get(1).getConfigMap().getName()).isEqualTo(name);

        // the files the agent reads: the CLI configuration and the job pod template, a Pod manifest
        ConfigMap config = rendered.get(ConfigMap.class, name);
        assertThat(config.getData()).containsOnlyKeys("pod-template.yaml", "cli-config.tfrc");
        assertThat(config.getData().get("cli-config.tfrc"))
                .contains("network_mirror")
                .contains("https://mirror.example.com/providers/");
        Pod template = KUBERNETES.unmarshal(config.getData().get("pod-template.yaml"), Pod.class);
        assertStrictlyTyped(template);
        assertThat(template.getKind()).isEqualTo("Pod");
        assertThat(template.getMetadata().getLabels()).containsOnly(Map.entry("team", "platform"));
        assertThat(template.getMetadata().getAnnotations())
                .containsOnly(Map.entry("cluster-autoscaler.kubernetes.io/safe-to-evict", "false"));
        assertThat(template.getSpec().getNodeSelector()).containsOnly(Map.entry("workload", "tofu"));
        assertThat(template.getSpec().getTolerations())
                .singleElement()
                .satisfies(toleration -> assertThat(toleration.getValue()).isEqualTo("tofu"));
        assertRestrictedPod(
                template.getSpec().getSecurityContext()); // the chart's default, kept beside the values file's fields
        assertThat(template.getSpec().getContainers()).singleElement().satisfies(tofu -> {
            assertThat(tofu.getName()).isEqualTo("tofu");
            assertThat(tofu.getResources().getRequests())
                    .containsEntry("cpu", new Quantity("500m"))
                    .containsEntry("memory", new Quantity("1Gi"));
            assertThat(tofu.getResources().getLimits()).containsOnly(Map.entry("memory", new Quantity("4Gi")));
        });
    }

    @Test
    void runnerJobsDefaultToTheReleaseNamespaceAndTheAgentImage() {
        Rendered rendered = render(
                RUNNER,
                template -> template.set("url", "https://polystack.example.com")
                        .set("org", "acme")
                        .set("runner", "eu-agent")
                        .set("privateKey.existingSecret", "eu-agent-key")
                        .set("image.repository", "registry.example.com/polystack/runner-agent")
                        .set("image.tag", "0.1.0-rc1")
                        .set("mode", "kubernetes-job"));
        String name = "acme-polystack-runner";
        assertThat(rendered.get(Role.class, name).getMetadata().getNamespace()).isEqualTo(NAMESPACE);
        Container agent = rendered.get(Deployment.class, name)
                .getSpec()
                .getTemplate()
                .getSpec()
                .getContainers()
                .get(0);
        assertThat(values(env(agent)))
                .containsEntry("POLYSTACK_AGENT_JOB_NAMESPACE", NAMESPACE)
                .containsEntry("POLYSTACK_AGENT_JOB_IMAGE", "registry.example.com/polystack/runner-agent:0.1.0-rc1")
                .doesNotContainKey("POLYSTACK_AGENT_JOB_SERVICE_ACCOUNT");
        Pod template = KUBERNETES.unmarshal(
                rendered.get(ConfigMap.class, name).getData().get("pod-template.yaml"), Pod.class);
        assertRestrictedPod(template.getSpec().getSecurityContext());
        assertRestrictedContainer(template.getSpec().getContainers().get(0).getSecurityContext());
    }

    @Test
    void runnerRefusesToRenderWithoutItsRequiredValues() {
        assertThatThrownBy(() -> render(
                        RUNNER,
                        template ->
                                template.set("org", "acme").set("runner", "r").set("privateKey.existingSecret", "k")))
                .hasMessageContaining("url is required");
        assertThatThrownBy(() -> render(
                        RUNNER,
                        template -> template.set("url", "polystack:8080")
                                .set("org", "acme")
                                .set("runner", "r")
                                .set("privateKey.existingSecret", "k")))
                .hasMessageContaining("url must be an http(s) URL");
        assertThatThrownBy(() -> render(
                        RUNNER,
                        template -> template.set("url", "http://p")
                                .set("runner", "r")
                                .set("privateKey.existingSecret", "k")))
                .hasMessageContaining("org is required");
        assertThatThrownBy(() -> render(
                        RUNNER,
                        template -> template.set("url", "http://p")
                                .set("org", "acme")
                                .set("privateKey.existingSecret", "k")))
                .hasMessageContaining("runner is required");
        assertThatThrownBy(() -> render(
                        RUNNER,
                        template -> template.set("url", "http://p")
                                .set("org", "acme")
                                .set("runner", "r")))
                .hasMessageContaining("privateKey.value or privateKey.existingSecret is required");
        assertThatThrownBy(() -> render(
                        RUNNER,
                        template -> template.set("url", "http://p")
                                .set("org", "acme")
                                .set("runner", "r")
                                .set("privateKey.existingSecret", "k")
                                .set("mode", "docker")))
                .hasMessageContaining("mode must be process or kubernetes-job");
        assertThatThrownBy(() -> render(
                        RUNNER,
                        template -> template.set("url", "http://p")
                                .set("org", "acme")
                                .set("runner", "r")
                                .set("privateKey.existingSecret", "k")
                                .set("settings.max-jobs", "3")))
                .hasMessageContaining("settings.max-jobs is set by the chart");
    }
}
