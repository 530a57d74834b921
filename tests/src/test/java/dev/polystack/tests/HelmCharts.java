package dev.polystack.tests;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.marcnuri.helm.Helm;
import com.marcnuri.helm.LintResult;
import com.marcnuri.helm.TemplateCommand;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretKeySelector;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

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

/**
 * What the Helm chart tests share: the embedded Helm of helm-java to lint and render the charts in
 * {@code helm/}, the fabric8 Kubernetes model to parse what they render (failing on any field it does not
 * know), and assertions on pods, probes, variables and secrets.
 */
final class HelmCharts {

    static final Path CHARTS = PlatformProcess.repository().resolve("helm");
    static final Path CONTROL_PLANE = CHARTS.resolve("polystack");
    static final Path RUNNER = CHARTS.resolve("polystack-runner");
    static final String RELEASE = "acme";
    /** The oldest Kubernetes the charts support (Chart.yaml kubeVersion) is 1.25; render for a current one. */
    static final String KUBERNETES_VERSION = "1.31.0";

    static final String NAMESPACE = "polystack";
    static final String DB_URL = "jdbc:postgresql://postgres.databases.svc:5432/polystack";
    static final String ENCRYPTION_KEY =
            Base64.getEncoder().encodeToString("0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.US_ASCII));
    static final KubernetesSerialization KUBERNETES = new KubernetesSerialization();
    static final YAMLMapper YAML = new YAMLMapper();

    private HelmCharts() {}

    /** {@code helm lint --strict} of a copy of the chart whose values.yaml has {@code overrides} merged in (lint takes no values). */
    static LintResult lint(Path temp, Path chart, Map<String, Object> overrides) throws IOException {
        Path copy = copy(temp, chart);
        ObjectNode values =
                (ObjectNode) YAML.readTree(copy.resolve("values.yaml").toFile());
        YAML.readerForUpdating(values).readValue(YAML.writeValueAsString(overrides));
        YAML.writeValue(copy.resolve("values.yaml").toFile(), values);
        return new Helm(copy).lint().strict().call();
    }

    static Path copy(Path temp, Path chart) throws IOException {
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

    static Rendered render(Path chart, UnaryOperator<TemplateCommand> options) {
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
    static void assertStrictlyTyped(Object object) {
        List<String> unknown = new ArrayList<>();
        collectUnknownFields(
                object, object.getClass().getSimpleName(), unknown, Collections.newSetFromMap(new IdentityHashMap<>()));
        assertThat(unknown).as("fields unknown to the Kubernetes model").isEmpty();
    }

    static void collectUnknownFields(Object value, String path, List<String> unknown, Set<Object> seen) {
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

    record Rendered(List<HasMetadata> objects) {

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

    static void assertRestrictedPod(PodSecurityContext context) {
        assertThat(context).isNotNull();
        assertThat(context.getRunAsNonRoot()).isTrue();
        assertThat(context.getRunAsUser()).isEqualTo(10001L);
        assertThat(context.getFsGroup()).isEqualTo(10001L);
        assertThat(context.getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
    }

    static void assertRestrictedContainer(SecurityContext context) {
        assertThat(context).isNotNull();
        assertThat(context.getAllowPrivilegeEscalation()).isFalse();
        assertThat(context.getReadOnlyRootFilesystem()).isTrue();
        assertThat(context.getCapabilities().getDrop()).containsExactly("ALL");
        assertThat(context.getCapabilities().getAdd()).isNullOrEmpty();
        assertThat(context.getPrivileged()).isNotEqualTo(Boolean.TRUE);
    }

    static void assertHttpProbe(Probe probe, String path) {
        assertThat(probe).as("probe of %s", path).isNotNull();
        assertThat(probe.getHttpGet().getPath()).isEqualTo(path);
        assertThat(probe.getHttpGet().getPort().getStrVal()).isEqualTo("http");
        assertThat(probe.getPeriodSeconds()).isPositive();
        assertThat(probe.getFailureThreshold()).isPositive();
    }

    static void assertSecretRef(EnvVar variable, String secret, String key) {
        assertThat(variable).as("variable from Secret %s, key %s", secret, key).isNotNull();
        assertThat(variable.getValue()).as(variable.getName()).isNull();
        SecretKeySelector selector = variable.getValueFrom().getSecretKeyRef();
        assertThat(selector.getName()).as(variable.getName()).isEqualTo(secret);
        assertThat(selector.getKey()).as(variable.getName()).isEqualTo(key);
    }

    static Map<String, EnvVar> env(Container container) {
        Map<String, EnvVar> env = new LinkedHashMap<>();
        for (EnvVar variable : container.getEnv()) {
            assertThat(env.put(variable.getName(), variable))
                    .as("%s set twice", variable.getName())
                    .isNull();
        }
        return env;
    }

    static Map<String, String> values(Map<String, EnvVar> env) {
        Map<String, String> values = new LinkedHashMap<>();
        env.forEach((name, variable) -> {
            if (variable.getValue() != null) {
                values.put(name, variable.getValue());
            }
        });
        return values;
    }

    static Map<String, String> mounts(Container container) {
        return container.getVolumeMounts().stream()
                .collect(Collectors.toMap(VolumeMount::getName, VolumeMount::getMountPath));
    }

    static Volume volume(PodSpec pod, String name) {
        return pod.getVolumes().stream()
                .filter(volume -> volume.getName().equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no volume " + name));
    }

    static Map<String, String> decoded(Secret secret) {
        assertThat(secret.getStringData()).isNullOrEmpty();
        Map<String, String> decoded = new LinkedHashMap<>();
        secret.getData()
                .forEach((key, value) ->
                        decoded.put(key, new String(Base64.getDecoder().decode(value), StandardCharsets.UTF_8)));
        return decoded;
    }

    /** Rules as "apiGroup/resource" -> verbs. */
    static Map<String, Set<String>> rules(Role role) {
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

    static String privateKeyPem() throws NoSuchAlgorithmException {
        byte[] pkcs8 = KeyPairGenerator.getInstance("Ed25519")
                .generateKeyPair()
                .getPrivate()
                .getEncoded();
        return "-----BEGIN PRIVATE KEY-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                        .encodeToString(pkcs8) + "\n-----END PRIVATE KEY-----\n";
    }

    static Path resource(String name) {
        try {
            return Path.of(HelmCharts.class.getClassLoader().getResource(name).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
