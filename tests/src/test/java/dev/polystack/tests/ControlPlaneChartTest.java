package dev.polystack.tests;

import com.marcnuri.helm.Helm;
import com.marcnuri.helm.LintResult;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.api.model.networking.v1.Ingress;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import static dev.polystack.tests.HelmCharts.CONTROL_PLANE;
import static dev.polystack.tests.HelmCharts.DB_URL;
import static dev.polystack.tests.HelmCharts.ENCRYPTION_KEY;
import static dev.polystack.tests.HelmCharts.NAMESPACE;
import static dev.polystack.tests.HelmCharts.RELEASE;
import static dev.polystack.tests.HelmCharts.Rendered;
import static dev.polystack.tests.HelmCharts.assertHttpProbe;
import static dev.polystack.tests.HelmCharts.assertRestrictedContainer;
import static dev.polystack.tests.HelmCharts.assertRestrictedPod;
import static dev.polystack.tests.HelmCharts.assertSecretRef;
import static dev.polystack.tests.HelmCharts.copy;
import static dev.polystack.tests.HelmCharts.decoded;
import static dev.polystack.tests.HelmCharts.env;
import static dev.polystack.tests.HelmCharts.lint;
import static dev.polystack.tests.HelmCharts.mounts;
import static dev.polystack.tests.HelmCharts.render;
import static dev.polystack.tests.HelmCharts.resource;
import static dev.polystack.tests.HelmCharts.volume;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The control plane's chart, {@code helm/polystack}, linted and rendered with the embedded Helm: kinds and
 * names, probes, security contexts, where every setting and secret comes from, and the values that must be
 * given.
 */
class ControlPlaneChartTest {

    @TempDir
    Path temp;

    @Test
    void controlPlaneChartLintsStrictlyWithTheRequiredValues() throws IOException {
        LintResult result = lint(
                temp,
                CONTROL_PLANE,
                Map.of("database", Map.of("url", DB_URL), "encryption", Map.of("key", ENCRYPTION_KEY)));
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
        Path broken = copy(temp, CONTROL_PLANE);
        Files.writeString(
                broken.resolve("templates/broken.yaml"),
                "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Values.missing.name }}\n");
        LintResult result = new Helm(broken).lint().strict().call();
        assertThat(result.isFailed()).isTrue();
        assertThat(String.join("\n", result.getMessages())).contains("templates/broken.yaml");
    }

    @Test
    void controlPlaneWithTheMinimumValues() throws IOException {
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
        // the chart runs the JVM as the README's run command does, apart from the heap, which follows the container
        assertThat(List.of(env.get("JDK_JAVA_OPTIONS").getValue().split("\\s+")))
                .containsAll(PlatformProcess.readmeJvmOptions().stream()
                        .filter(option -> !option.startsWith("-Xmx"))
                        .toList());
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
}
