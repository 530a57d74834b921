package dev.polystack.tests;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.marcnuri.helm.Helm;
import com.marcnuri.helm.LintResult;
import com.marcnuri.helm.TemplateCommand;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretKeySelector;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeProjection;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.api.model.networking.v1.Ingress;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.lang.reflect.Method;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Lints and renders the Helm charts in {@code helm/} with the embedded Helm of helm-java, parses what they
 * render with the fabric8 Kubernetes model, and checks the objects: kinds and names, probes, security
 * contexts, where every setting and secret comes from, and the values that must be given.
 */
class HelmChartsTest {

    private static final Path CHARTS = PlatformProcess.repository().resolve("helm");
    private static final Path CONTROL_PLANE = CHARTS.resolve("polystack");
    private static final Path RUNNER = CHARTS.resolve("polystack-runner");
    private static final String RELEASE = "acme";
    /** The oldest Kubernetes the charts support (Chart.yaml kubeVersion) is 1.25; render for a current one. */
    private static final String KUBERNETES_VERSION = "1.31.0";

    private static final String NAMESPACE = "polystack";
    private static final String DB_URL = "jdbc:postgresql://postgres.databases.svc:5432/polystack";
    private static final String ENCRYPTION_KEY =
            Base64.getEncoder().encodeToString("0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.US_ASCII));
    private static final KubernetesSerialization KUBERNETES = new KubernetesSerialization();
    private static final YAMLMapper YAML = new YAMLMapper();

    @TempDir
    Path temp;

    // ---------------------------------------------------------------------------------------------
    // helm/polystack

    @Test
    void controlPlaneChartLintsStrictlyWithTheRequiredValues() throws IOException {
        LintResult result = lint(
                CONTROL_PLANE, Map.of("database", Map.of("url", DB_URL), "encryption", Map.of("key", ENCRYPTION_KEY)));
        assertThat(result.isFailed())
                .as("lint --strict: %s", result.getMessages())
                .isFalse();
        assertThat(result.getMessages())
                .noneMatch(message -> message.contains("[WARNING]") || message.contains("[ERROR]"));
    }

    @Test
    void lintReportsABrokenTemplate() throws IOException {
        // Helm's lint mode lets `required` pass (the render tests check those); this shows that lint does check
        // templates
        Path broken = copy(CONTROL_PLANE);
        Files.writeString(
                broken.resolve("templates/broken.yaml"),
                "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Values.missing.name }}\n");
        LintResult result = new Helm(broken).lint().strict().call();
        assertThat(result.isFailed()).isTrue();
        assertThat(String.join("\n", result.getMessages())).contains("templates/broken.yaml");
    }

    @Test
    void controlPlaneWithTheMinimumValues() {
        Rendered rendered = render(
                CONTROL_PLANE, template -> template.set("database.url", DB_URL).set("encryption.key", ENCRYPTION_KEY));
        String name = "acme-polystack";
        assertThat(rendered.names())
                .containsExactlyInAnyOrder(
                        "ServiceAccount/" + name,
                        "ConfigMap/" + name,
                        "Secret/" + name,
                        "Service/" + name,
                        "Deployment/" + name,
                        "PodDisruptionBudget/" + name);

        Deployment deployment = rendered.get(Deployment.class, name);
        assertThat(deployment.getMetadata().getNamespace()).isEqualTo(NAMESPACE);
        assertThat(deployment.getSpec().getReplicas()).isEqualTo(2);
        Map<String, String> selector = deployment.getSpec().getSelector().getMatchLabels();
        assertThat(selector)
                .containsOnly(
                        Map.entry("app.kubernetes.io/name", "polystack"),
                        Map.entry("app.kubernetes.io/instance", RELEASE));
        assertThat(deployment.getSpec().getTemplate().getMetadata().getLabels())
                .containsAllEntriesOf(selector)
                .containsEntry("app.kubernetes.io/version", "0.1.0")
                .containsKey("helm.sh/chart");
        assertThat(deployment.getSpec().getTemplate().getMetadata().getAnnotations())
                .containsKeys("checksum/config", "checksum/secret");

        PodSpec pod = deployment.getSpec().getTemplate().getSpec();
        assertThat(pod.getServiceAccountName()).isEqualTo(name);
        assertThat(pod.getAutomountServiceAccountToken()).isFalse();
        assertRestrictedPod(pod.getSecurityContext());
        assertThat(pod.getContainers()).hasSize(1);
        Container container = pod.getContainers().get(0);
        assertThat(container.getImage()).isEqualTo("polystack/platform-api:0.1.0");
        assertRestrictedContainer(container.getSecurityContext());
        assertThat(container.getPorts()).singleElement().satisfies(port -> {
            assertThat(port.getName()).isEqualTo("http");
            assertThat(port.getContainerPort()).isEqualTo(8080);
        });
        assertHttpProbe(container.getStartupProbe(), "/q/health/live");
        assertHttpProbe(container.getLivenessProbe(), "/q/health/live");
        assertHttpProbe(container.getReadinessProbe(), "/q/health/ready");
        assertThat(container.getResources().getRequests()).containsKeys("cpu", "memory");
        assertThat(container.getResources().getLimits()).containsKey("memory");

        // writable volumes for /tmp and the data directory, nothing else
        assertThat(mounts(container)).containsOnly(Map.entry("tmp", "/tmp"), Map.entry("data", "/data"));
        assertThat(pod.getVolumes()).extracting(Volume::getName).containsExactlyInAnyOrder("tmp", "data");
        assertThat(pod.getVolumes())
                .allSatisfy(volume -> assertThat(volume.getEmptyDir()).isNotNull());

        // settings from the ConfigMap, secrets from the Secret
        assertThat(container.getEnvFrom())
                .singleElement()
                .satisfies(from -> assertThat(from.getConfigMapRef().getName()).isEqualTo(name));
        ConfigMap config = rendered.get(ConfigMap.class, name);
        assertThat(config.getData())
                .containsEntry("POLYSTACK_DB_URL", DB_URL)
                .containsEntry("POLYSTACK_DB_USER", "polystack")
                .containsEntry("POLYSTACK_DATA_DIR", "/data")
                .containsEntry("POLYSTACK_HTTP_PORT", "8080")
                .containsEntry("POLYSTACK_LOG_JSON", "true")
                .containsEntry("POLYSTACK_ENCRYPTION_KEY_ID", "1")
                .doesNotContainKeys(
                        "POLYSTACK_OIDC_ISSUER",
                        "POLYSTACK_DB_PASSWORD",
                        "POLYSTACK_ENCRYPTION_KEY",
                        "QUARKUS_HTTP_PROXY_TRUSTED_PROXIES",
                        "QUARKUS_HTTP_PROXY_PROXY_ADDRESS_FORWARDING");
        assertThat(config.getData().values()).doesNotContain(ENCRYPTION_KEY);
        Map<String, EnvVar> env = env(container);
        assertThat(env).containsOnlyKeys("POLYSTACK_ENCRYPTION_KEY", "JDK_JAVA_OPTIONS");
        assertSecretRef(env.get("POLYSTACK_ENCRYPTION_KEY"), name, "encryption-key");
        assertThat(decoded(rendered.get(Secret.class, name))).containsOnly(Map.entry("encryption-key", ENCRYPTION_KEY));

        Service service = rendered.get(Service.class, name);
        assertThat(service.getSpec().getSelector()).isEqualTo(selector);
        assertThat(service.getSpec().getPorts()).singleElement().satisfies(port -> {
            assertThat(port.getPort()).isEqualTo(80);
            assertThat(port.getTargetPort().getStrVal()).isEqualTo("http");
        });

        PodDisruptionBudget budget = rendered.get(PodDisruptionBudget.class, name);
        assertThat(budget.getSpec().getMinAvailable().getIntVal()).isEqualTo(1);
        assertThat(budget.getSpec().getSelector().getMatchLabels()).isEqualTo(selector);

        assertThat(pod.getTopologySpreadConstraints()).singleElement().satisfies(constraint -> {
            assertThat(constraint.getTopologyKey()).isEqualTo("kubernetes.io/hostname");
            assertThat(constraint.getLabelSelector().getMatchLabels()).isEqualTo(selector);
        });
        assertThat(rendered.get(ServiceAccount.class, name).getAutomountServiceAccountToken())
                .isFalse();
    }

    @Test
    void controlPlaneInProduction() {
        Rendered rendered =
                render(CONTROL_PLANE, template -> template.withValuesFile(resource("helm/polystack-production.yaml")));
        String name = "acme-polystack";
        // no Secret of its own: every secret comes from an existing one
        assertThat(rendered.names())
                .containsExactlyInAnyOrder(
                        "ServiceAccount/" + name,
                        "ConfigMap/" + name,
                        "Service/" + name,
                        "Deployment/" + name,
                        "PodDisruptionBudget/" + name,
                        "HorizontalPodAutoscaler/" + name,
                        "Ingress/" + name,
                        "ServiceMonitor/" + name);

        Deployment deployment = rendered.get(Deployment.class, name);
        assertThat(deployment.getSpec().getReplicas())
                .as("the HorizontalPodAutoscaler owns the replicas")
                .isNull();
        assertThat(deployment.getSpec().getTemplate().getMetadata().getAnnotations())
                .containsKey("checksum/config")
                .doesNotContainKey("checksum/secret")
                .containsEntry("backup.velero.io/backup-volumes-excludes", "tmp,data");
        PodSpec pod = deployment.getSpec().getTemplate().getSpec();
        assertThat(pod.getImagePullSecrets())
                .singleElement()
                .satisfies(secret -> assertThat(secret.getName()).isEqualTo("registry-credentials"));
        assertThat(pod.getNodeSelector()).containsEntry("kubernetes.io/os", "linux");
        assertThat(pod.getTolerations())
                .singleElement()
                .satisfies(toleration -> assertThat(toleration.getValue()).isEqualTo("platform"));
        Container container = pod.getContainers().get(0);
        assertThat(container.getImage()).isEqualTo("registry.example.com/polystack/platform-api:0.1.0");
        assertThat(container.getImagePullPolicy()).isEqualTo("Always");
        assertThat(container.getResources().getLimits()).containsEntry("memory", new Quantity("2Gi"));

        Map<String, EnvVar> env = env(container);
        assertSecretRef(env.get("POLYSTACK_DB_PASSWORD"), "polystack-database", "db-password");
        assertSecretRef(env.get("POLYSTACK_ENCRYPTION_KEY"), "polystack-encryption", "current");
        assertSecretRef(env.get("POLYSTACK_ENCRYPTION_PREVIOUS_KEYS"), "polystack-encryption", "previous");
        assertSecretRef(env.get("POLYSTACK_BOOTSTRAP_ADMIN_TOKEN"), "polystack-bootstrap", "token");
        assertThat(env.get("TZ").getValue()).isEqualTo("UTC");

        ConfigMap config = rendered.get(ConfigMap.class, name);
        assertThat(config.getData())
                .containsEntry(
                        "POLYSTACK_DB_URL", "jdbc:postgresql://postgres.databases.svc:5432/polystack?sslmode=require")
                .containsEntry("POLYSTACK_DB_USER", "polystack_app")
                .containsEntry("POLYSTACK_DB_POOL_SIZE", "15")
                .containsEntry("POLYSTACK_ENCRYPTION_KEY_ID", "2")
                .containsEntry("POLYSTACK_OIDC_ISSUER", "https://keycloak.example.com/realms/polystack")
                .containsEntry("POLYSTACK_OIDC_CLIENT_ID", "polystack")
                .containsEntry("POLYSTACK_OIDC_CONSOLE_CLIENT_ID", "polystack-console")
                .containsEntry("POLYSTACK_OIDC_CLI_CLIENT_ID", "polystack-cli")
                .containsEntry("POLYSTACK_OIDC_GROUPS_CLAIM", "groups")
                .containsEntry("POLYSTACK_JOBS_LEASE", "90s")
                .containsEntry("POLYSTACK_JOBS_MAX_ATTEMPTS", "2")
                // behind its ingress, client addresses are the forwarded ones, from the trusted controller only
                .containsEntry("QUARKUS_HTTP_PROXY_PROXY_ADDRESS_FORWARDING", "true")
                .containsEntry("QUARKUS_HTTP_PROXY_ALLOW_X_FORWARDED", "true")
                .containsEntry("QUARKUS_HTTP_PROXY_TRUSTED_PROXIES", "10.0.0.0/8,172.16.0.0/12,192.168.0.0/16");

        HorizontalPodAutoscaler autoscaler = rendered.get(HorizontalPodAutoscaler.class, name);
        assertThat(autoscaler.getSpec().getScaleTargetRef().getKind()).isEqualTo("Deployment");
        assertThat(autoscaler.getSpec().getScaleTargetRef().getName()).isEqualTo(name);
        assertThat(autoscaler.getSpec().getMinReplicas()).isEqualTo(3);
        assertThat(autoscaler.getSpec().getMaxReplicas()).isEqualTo(8);
        assertThat(autoscaler.getSpec().getMetrics()).singleElement().satisfies(metric -> {
            assertThat(metric.getResource().getName()).isEqualTo("cpu");
            assertThat(metric.getResource().getTarget().getAverageUtilization()).isEqualTo(70);
        });

        Ingress ingress = rendered.get(Ingress.class, name);
        assertThat(ingress.getSpec().getIngressClassName()).isEqualTo("nginx");
        assertThat(ingress.getSpec().getTls()).singleElement().satisfies(tls -> {
            assertThat(tls.getSecretName()).isEqualTo("polystack-tls");
            assertThat(tls.getHosts()).containsExactly("polystack.example.com");
        });
        assertThat(ingress.getSpec().getRules()).singleElement().satisfies(rule -> {
            assertThat(rule.getHost()).isEqualTo("polystack.example.com");
            assertThat(rule.getHttp().getPaths()).singleElement().satisfies(path -> {
                assertThat(path.getBackend().getService().getName()).isEqualTo(name);
                assertThat(path.getBackend().getService().getPort().getNumber()).isEqualTo(80);
            });
        });

        GenericKubernetesResource monitor = rendered.get(GenericKubernetesResource.class, name);
        assertThat(monitor.getApiVersion()).isEqualTo("monitoring.coreos.com/v1");
        assertThat(monitor.getMetadata().getLabels()).containsEntry("release", "prometheus");
        Map<String, Object> endpoint =
                monitor.<List<Map<String, Object>>>get("spec", "endpoints").get(0);
        assertThat(endpoint)
                .containsEntry("port", "http")
                .containsEntry("path", "/q/metrics")
                .containsEntry("interval", "15s");
        assertThat(monitor.<Map<String, String>>get("spec", "selector", "matchLabels"))
                .isEqualTo(rendered.get(Service.class, name).getSpec().getSelector());
    }

    @Test
    void controlPlaneKeepsSecretValuesInItsSecretOnly() {
        String password = "db-secret-password";
        String previous = Base64.getEncoder()
                .encodeToString("fedcba9876543210fedcba9876543210".getBytes(StandardCharsets.US_ASCII));
        String token = "pst_" + "a".repeat(40);
        Rendered rendered = render(
                CONTROL_PLANE,
                template -> template.set("database.url", DB_URL)
                        .set("database.password", password)
                        .set("encryption.key", ENCRYPTION_KEY)
                        .set("encryption.previousKeys[0]", previous)
                        .set("encryption.keyId", 2)
                        .set("bootstrap.adminToken", token));
        String name = "acme-polystack";
        assertThat(decoded(rendered.get(Secret.class, name)))
                .containsOnly(
                        Map.entry("database-password", password), Map.entry("encryption-key", ENCRYPTION_KEY),
                        Map.entry("encryption-previous-keys", previous), Map.entry("admin-token", token));
        for (ConfigMap config : rendered.all(ConfigMap.class)) {
            assertThat(config.getData().values())
                    .allSatisfy(value -> assertThat(value).doesNotContain(password, ENCRYPTION_KEY, previous, token));
        }
        Map<String, EnvVar> env = env(rendered.get(Deployment.class, name)
                .getSpec()
                .getTemplate()
                .getSpec()
                .getContainers()
                .get(0));
        assertSecretRef(env.get("POLYSTACK_DB_PASSWORD"), name, "database-password");
        assertSecretRef(env.get("POLYSTACK_ENCRYPTION_KEY"), name, "encryption-key");
        assertSecretRef(env.get("POLYSTACK_ENCRYPTION_PREVIOUS_KEYS"), name, "encryption-previous-keys");
        assertSecretRef(env.get("POLYSTACK_BOOTSTRAP_ADMIN_TOKEN"), name, "admin-token");
        assertThat(env.values())
                .allSatisfy(
                        variable -> assertThat(variable.getValue()).isNotIn(password, ENCRYPTION_KEY, previous, token));
    }

    @Test
    void controlPlaneRefusesToRenderWithoutItsRequiredValues() {
        assertThatThrownBy(() -> render(CONTROL_PLANE, template -> template.set("encryption.key", ENCRYPTION_KEY)))
                .hasMessageContaining("database.url is required")
                .hasMessageContaining("external PostgreSQL");
        assertThatThrownBy(() -> render(CONTROL_PLANE, template -> template.set("database.url", DB_URL)))
                .hasMessageContaining("encryption.key or encryption.existingSecret is required");
        assertThatThrownBy(() -> render(
                        CONTROL_PLANE,
                        template -> template.set("database.url", DB_URL)
                                .set("encryption.key", ENCRYPTION_KEY)
                                .set("config.POLYSTACK_DB_PASSWORD", "x")))
                .hasMessageContaining("config.POLYSTACK_DB_PASSWORD would put a secret into a ConfigMap");
        assertThatThrownBy(() -> render(
                        CONTROL_PLANE,
                        template -> template.set("database.url", DB_URL)
                                .set("encryption.key", ENCRYPTION_KEY)
                                .set("bootstrap.adminToken", "not-a-token")))
                .hasMessageContaining("bootstrap.adminToken must start with pst_");
    }

    @Test
    void controlPlaneWithOneReplicaHasNoDisruptionBudget() {
        Rendered rendered = render(
                CONTROL_PLANE,
                template -> template.set("database.url", DB_URL)
                        .set("encryption.existingSecret", "keys")
                        .set("replicaCount", 1));
        assertThat(rendered.names()).doesNotContain("PodDisruptionBudget/acme-polystack", "Secret/acme-polystack");
        assertThat(rendered.get(Deployment.class, "acme-polystack").getSpec().getReplicas())
                .isEqualTo(1);
        assertSecretRef(
                env(rendered.get(Deployment.class, "acme-polystack")
                                .getSpec()
                                .getTemplate()
                                .getSpec()
                                .getContainers()
                                .get(0))
                        .get("POLYSTACK_ENCRYPTION_KEY"),
                "keys",
                "encryption-key");
    }

    // ---------------------------------------------------------------------------------------------
    // helm/polystack-runner

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
        LintResult process = lint(RUNNER, required);
        assertThat(process.isFailed())
                .as("lint --strict: %s", process.getMessages())
                .isFalse();
        Map<String, Object> jobs = new LinkedHashMap<>(required);
        jobs.put("mode", "kubernetes-job");
        LintResult kubernetesJob = lint(RUNNER, jobs);
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

    // ---------------------------------------------------------------------------------------------

    /** {@code helm lint --strict} of a copy of the chart whose values.yaml has {@code overrides} merged in (lint takes no values). */
    private LintResult lint(Path chart, Map<String, Object> overrides) throws IOException {
        Path copy = copy(chart);
        ObjectNode values =
                (ObjectNode) YAML.readTree(copy.resolve("values.yaml").toFile());
        YAML.readerForUpdating(values).readValue(YAML.writeValueAsString(overrides));
        YAML.writeValue(copy.resolve("values.yaml").toFile(), values);
        return new Helm(copy).lint().strict().call();
    }

    private Path copy(Path chart) throws IOException {
        Path copy = temp.resolve(chart.getFileName() + "-" + System.nanoTime());
        try (Stream<Path> files = Files.walk(chart)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                Path target = copy.resolve(chart.relativize(file).toString());
                if (Files.isDirectory(file)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(file, target);
                }
            }
        }
        return copy;
    }

    private static Rendered render(Path chart, UnaryOperator<TemplateCommand> options) {
        String yaml = options.apply(new Helm(chart)
                        .template()
                        .withName(RELEASE)
                        .withNamespace(NAMESPACE)
                        .withKubeVersion(KUBERNETES_VERSION))
                .call();
        List<HasMetadata> objects = new ArrayList<>();
        for (String document : yaml.split("(?m)^---\\s*$")) {
            boolean empty = document.lines()
                    .allMatch(line -> line.isBlank() || line.stripLeading().startsWith("#"));
            if (empty) {
                continue;
            }
            HasMetadata object = KUBERNETES.unmarshal(document);
            assertThat(object.getApiVersion()).as("apiVersion of\n%s", document).isNotBlank();
            assertThat(object.getKind()).as("kind of\n%s", document).isNotBlank();
            assertThat(object.getMetadata().getName())
                    .as("name of\n%s", document)
                    .matches("[a-z0-9]([-a-z0-9]*[a-z0-9])?")
                    .hasSizeLessThanOrEqualTo(63);
            if (!(object instanceof GenericKubernetesResource)) {
                assertStrictlyTyped(object);
            }
            objects.add(object);
        }
        return new Rendered(objects);
    }

    /** Fails on any field the Kubernetes model does not know (fabric8 keeps those aside instead of failing). */
    private static void assertStrictlyTyped(Object object) {
        List<String> unknown = new ArrayList<>();
        collectUnknownFields(
                object, object.getClass().getSimpleName(), unknown, Collections.newSetFromMap(new IdentityHashMap<>()));
        assertThat(unknown).as("fields unknown to the Kubernetes model").isEmpty();
    }

    private static void collectUnknownFields(Object value, String path, List<String> unknown, Set<Object> seen) {
        if (value == null || !seen.add(value)) {
            return;
        }
        if (value instanceof Collection<?> collection) {
            int index = 0;
            for (Object element : collection) {
                collectUnknownFields(element, path + "[" + index++ + "]", unknown, seen);
            }
            return;
        }
        if (value instanceof Map<?, ?> map) {
            map.forEach((key, element) -> collectUnknownFields(element, path + "." + key, unknown, seen));
            return;
        }
        if (!value.getClass().getName().startsWith("io.fabric8.kubernetes.api.model")) {
            return;
        }
        for (Method method : value.getClass().getMethods()) {
            if (method.getParameterCount() != 0
                    || !method.getName().startsWith("get")
                    || method.getDeclaringClass() == Object.class) {
                continue;
            }
            Object property;
            try {
                property = method.invoke(value);
            } catch (ReflectiveOperationException e) {
                throw new AssertionError(e);
            }
            if (method.getName().equals("getAdditionalProperties")) {
                if (property instanceof Map<?, ?> extra && !extra.isEmpty()) {
                    unknown.add(path + ": " + extra.keySet());
                }
            } else {
                collectUnknownFields(property, path + "." + method.getName().substring(3), unknown, seen);
            }
        }
    }

    private record Rendered(List<HasMetadata> objects) {

        List<String> names() {
            return objects.stream()
                    .map(object -> object.getKind() + "/" + object.getMetadata().getName())
                    .collect(Collectors.toList());
        }

        <T extends HasMetadata> List<T> all(Class<T> type) {
            return objects.stream().filter(type::isInstance).map(type::cast).collect(Collectors.toList());
        }

        <T extends HasMetadata> T get(Class<T> type, String name) {
            List<T> matches = all(type).stream()
                    .filter(object -> object.getMetadata().getName().equals(name))
                    .collect(Collectors.toList());
            assertThat(matches)
                    .as("%s %s among %s", type.getSimpleName(), name, names())
                    .hasSize(1);
            return matches.get(0);
        }
    }

    private static void assertRestrictedPod(PodSecurityContext context) {
        assertThat(context).isNotNull();
        assertThat(context.getRunAsNonRoot()).isTrue();
        assertThat(context.getRunAsUser()).isEqualTo(10001L);
        assertThat(context.getFsGroup()).isEqualTo(10001L);
        assertThat(context.getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
    }

    private static void assertRestrictedContainer(SecurityContext context) {
        assertThat(context).isNotNull();
        assertThat(context.getAllowPrivilegeEscalation()).isFalse();
        assertThat(context.getReadOnlyRootFilesystem()).isTrue();
        assertThat(context.getCapabilities().getDrop()).containsExactly("ALL");
        assertThat(context.getCapabilities().getAdd()).isNullOrEmpty();
        assertThat(context.getPrivileged()).isNotEqualTo(Boolean.TRUE);
    }

    private static void assertHttpProbe(Probe probe, String path) {
        assertThat(probe).as("probe of %s", path).isNotNull();
        assertThat(probe.getHttpGet().getPath()).isEqualTo(path);
        assertThat(probe.getHttpGet().getPort().getStrVal()).isEqualTo("http");
        assertThat(probe.getPeriodSeconds()).isPositive();
        assertThat(probe.getFailureThreshold()).isPositive();
    }

    private static void assertSecretRef(EnvVar variable, String secret, String key) {
        assertThat(variable).as("variable from Secret %s, key %s", secret, key).isNotNull();
        assertThat(variable.getValue()).as(variable.getName()).isNull();
        SecretKeySelector selector = variable.getValueFrom().getSecretKeyRef();
        assertThat(selector.getName()).as(variable.getName()).isEqualTo(secret);
        assertThat(selector.getKey()).as(variable.getName()).isEqualTo(key);
    }

    private static Map<String, EnvVar> env(Container container) {
        Map<String, EnvVar> env = new LinkedHashMap<>();
        for (EnvVar variable : container.getEnv()) {
            assertThat(env.put(variable.getName(), variable))
                    .as("%s set twice", variable.getName())
                    .isNull();
        }
        return env;
    }

    private static Map<String, String> values(Map<String, EnvVar> env) {
        Map<String, String> values = new LinkedHashMap<>();
        env.forEach((name, variable) -> {
            if (variable.getValue() != null) {
                values.put(name, variable.getValue());
            }
        });
        return values;
    }

    private static Map<String, String> mounts(Container container) {
        return container.getVolumeMounts().stream()
                .collect(Collectors.toMap(VolumeMount::getName, VolumeMount::getMountPath));
    }

    private static Volume volume(PodSpec pod, String name) {
        return pod.getVolumes().stream()
                .filter(volume -> volume.getName().equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no volume " + name));
    }

    private static Map<String, String> decoded(Secret secret) {
        assertThat(secret.getStringData()).isNullOrEmpty();
        Map<String, String> decoded = new LinkedHashMap<>();
        secret.getData()
                .forEach((key, value) ->
                        decoded.put(key, new String(Base64.getDecoder().decode(value), StandardCharsets.UTF_8)));
        return decoded;
    }

    /** Rules as "apiGroup/resource" -> verbs. */
    private static Map<String, Set<String>> rules(Role role) {
        Map<String, Set<String>> rules = new LinkedHashMap<>();
        for (PolicyRule rule : role.getRules()) {
            for (String group : rule.getApiGroups()) {
                for (String resource : rule.getResources()) {
                    assertThat(rules.put(group + "/" + resource, Set.copyOf(rule.getVerbs())))
                            .isNull();
                }
            }
        }
        return rules;
    }

    private static String privateKeyPem() throws NoSuchAlgorithmException {
        byte[] pkcs8 = KeyPairGenerator.getInstance("Ed25519")
                .generateKeyPair()
                .getPrivate()
                .getEncoded();
        return "-----BEGIN PRIVATE KEY-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                        .encodeToString(pkcs8) + "\n-----END PRIVATE KEY-----\n";
    }

    private static Path resource(String name) {
        try {
            return Path.of(
                    HelmChartsTest.class.getClassLoader().getResource(name).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
