package dev.polystack.runner;

import java.io.IOException;
import java.io.Reader;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

/**
 * The agent's settings, from (later wins) defaults, a properties file ({@code --config FILE} or
 * {@code POLYSTACK_AGENT_CONFIG}), environment variables ({@code POLYSTACK_AGENT_URL}, ...) and
 * {@code --name=value} arguments. Variables for tofu itself (provider credentials) are given as
 * {@code POLYSTACK_AGENT_TOFU_ENV_<NAME>} or {@code tofu-env.<NAME>=value} in the file.
 */
public record AgentConfig(
        URI url,
        String org,
        String runner,
        Path keyFile,
        Path workDir,
        String tofu,
        int maxJobs,
        String logLevel,
        Duration cancelGrace,
        Duration shutdownGrace,
        Duration claimWait,
        String audience,
        Path pluginCacheDir,
        Path cliConfig,
        boolean keepWorkDirs,
        Map<String, String> tofuEnvironment,
        Kubernetes kubernetes) {

    /** Where jobs run when {@code executor=kubernetes-job}: one Kubernetes Job per claimed job. */
    public record Kubernetes(
            String namespace,
            String image,
            Path podTemplate,
            String serviceAccount,
            Duration startTimeout,
            Duration ttl) {}

    /** The namespace the agent runs in, as Kubernetes mounts it into every pod. */
    static final Path POD_NAMESPACE_FILE = Path.of("/var/run/secrets/kubernetes.io/serviceaccount/namespace");

    /** Environment variables with this prefix are passed to tofu without it (provider credentials, proxies). */
    static final String TOFU_ENV_PREFIX = "POLYSTACK_AGENT_TOFU_ENV_";

    /** Setting name → what it means; the environment variable is POLYSTACK_AGENT_ + upper case with underscores. */
    static final Map<String, String> SETTINGS = new LinkedHashMap<>();

    static {
        SETTINGS.put("url", "control plane URL, e.g. https://polystack.example.com");
        SETTINGS.put("org", "organization id");
        SETTINGS.put("runner", "runner id, as registered");
        SETTINGS.put("key-file", "Ed25519 private key (PEM, PKCS#8); default ~/.polystack-agent/runner.key");
        SETTINGS.put("work-dir", "where job workspaces are made; default ~/.polystack-agent/work");
        SETTINGS.put("tofu", "the OpenTofu or Terraform binary; default `tofu` on the PATH, else `terraform`");
        SETTINGS.put("max-jobs", "jobs run at once; default 1");
        SETTINGS.put("log-level", "INFO, FINE (debug), WARNING; default INFO");
        SETTINGS.put("cancel-grace", "time between SIGINT and SIGKILL when a job is cancelled; default 30s");
        SETTINGS.put(
                "shutdown-grace", "time running jobs get to finish on SIGTERM before they are cancelled; default 60s");
        SETTINGS.put("claim-wait", "how long one claim waits for work; default 30s");
        SETTINGS.put("audience", "the audience of the agent's tokens; default polystack");
        SETTINGS.put(
                "plugin-cache-dir",
                "provider plugin cache shared by all jobs (TF_PLUGIN_CACHE_DIR); default ~/.polystack-agent/plugin-cache");
        SETTINGS.put(
                "cli-config", "an OpenTofu CLI configuration file, e.g. with provider mirrors (TF_CLI_CONFIG_FILE)");
        SETTINGS.put(
                "keep-work-dirs",
                "true keeps each job's work directory (in kubernetes-job mode: its Job) for debugging; default false");
        SETTINGS.put(
                "executor",
                "process (tofu runs in the agent) or kubernetes-job (one Kubernetes Job per job); default process");
        SETTINGS.put("job-namespace", "kubernetes-job: namespace of the Jobs; default the agent's own");
        SETTINGS.put("job-image", "kubernetes-job: image of the job pods, with this agent and tofu in it (required)");
        SETTINGS.put(
                "job-pod-template",
                "kubernetes-job: YAML Pod whose metadata and spec (resources of a container named tofu, "
                        + "nodeSelector, tolerations, ...) the job pods start from");
        SETTINGS.put("job-service-account", "kubernetes-job: service account of the job pods; default none mounted");
        SETTINGS.put("job-start-timeout", "kubernetes-job: how long a job pod may take to start; default 10m");
        SETTINGS.put(
                "job-ttl",
                "kubernetes-job: how long Kubernetes keeps a finished Job the agent could not delete; default 10m");
    }

    public static AgentConfig load(List<String> args, Map<String, String> environment) {
        Map<String, String> values = new LinkedHashMap<>();
        String configFile = environment.get("POLYSTACK_AGENT_CONFIG");
        List<String> rest = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            if (args.get(i).equals("--config") && i + 1 < args.size()) {
                configFile = args.get(++i);
            } else if (args.get(i).startsWith("--config=")) {
                configFile = args.get(i).substring("--config=".length());
            } else {
                rest.add(args.get(i));
            }
        }
        if (configFile != null) {
            Properties properties = new Properties();
            try (Reader reader = Files.newBufferedReader(Path.of(configFile))) {
                properties.load(reader);
            } catch (IOException e) {
                throw new ConfigException("cannot read the config file " + configFile + ": " + e.getMessage());
            }
            properties
                    .stringPropertyNames()
                    .forEach(name ->
                            values.put(name, properties.getProperty(name).trim()));
        }
        for (String name : SETTINGS.keySet()) {
            String value = environment.get(envName(name));
            if (value != null && !value.isBlank()) {
                values.put(name, value.trim());
            }
        }
        Map<String, String> tofuEnvironment = new LinkedHashMap<>();
        environment.forEach((name, value) -> {
            if (name.startsWith(TOFU_ENV_PREFIX) && name.length() > TOFU_ENV_PREFIX.length()) {
                tofuEnvironment.put(name.substring(TOFU_ENV_PREFIX.length()), value);
            }
        });
        for (String name : List.copyOf(values.keySet())) {
            if (name.startsWith("tofu-env.")) {
                tofuEnvironment.put(name.substring("tofu-env.".length()), values.remove(name));
            }
        }
        for (String arg : rest) {
            if (!arg.startsWith("--") || !arg.contains("=")) {
                throw new ConfigException("unexpected argument `" + arg + "`; settings are given as --name=value");
            }
            values.put(arg.substring(2, arg.indexOf('=')), arg.substring(arg.indexOf('=') + 1));
        }
        for (String name : values.keySet()) {
            if (!SETTINGS.containsKey(name)) {
                throw new ConfigException(
                        "unknown setting `" + name + "`; known: " + String.join(", ", SETTINGS.keySet()));
            }
        }
        Path home = Path.of(System.getProperty("user.home"), ".polystack-agent");
        return new AgentConfig(
                uri(required(values, "url")),
                required(values, "org"),
                required(values, "runner"),
                Path.of(values.getOrDefault(
                        "key-file", home.resolve("runner.key").toString())),
                Path.of(values.getOrDefault("work-dir", home.resolve("work").toString())),
                values.get("tofu"),
                positive(values.getOrDefault("max-jobs", "1"), "max-jobs"),
                values.getOrDefault("log-level", "INFO").toUpperCase(Locale.ROOT),
                duration(values.getOrDefault("cancel-grace", "30s"), "cancel-grace"),
                duration(values.getOrDefault("shutdown-grace", "60s"), "shutdown-grace"),
                duration(values.getOrDefault("claim-wait", "30s"), "claim-wait"),
                values.getOrDefault("audience", "polystack"),
                Path.of(values.getOrDefault(
                        "plugin-cache-dir", home.resolve("plugin-cache").toString())),
                values.containsKey("cli-config") ? Path.of(values.get("cli-config")) : null,
                Boolean.parseBoolean(values.getOrDefault("keep-work-dirs", "false")),
                Map.copyOf(tofuEnvironment),
                kubernetes(values));
    }

    /** The same settings with the binary that was found (see {@link TofuBinary#find}). */
    public AgentConfig withTofu(String binary) {
        return new AgentConfig(
                url,
                org,
                runner,
                keyFile,
                workDir,
                binary,
                maxJobs,
                logLevel,
                cancelGrace,
                shutdownGrace,
                claimWait,
                audience,
                pluginCacheDir,
                cliConfig,
                keepWorkDirs,
                tofuEnvironment,
                kubernetes);
    }

    /** Whether each job runs as a Kubernetes Job. */
    public boolean kubernetesJobs() {
        return kubernetes != null;
    }

    public String jobNamespace() {
        return kubernetes == null ? null : kubernetes.namespace();
    }

    private static Kubernetes kubernetes(Map<String, String> values) {
        String executor = values.getOrDefault("executor", "process");
        if (executor.equals("process")) {
            for (String name : values.keySet()) {
                if (name.startsWith("job-")) {
                    throw new ConfigException(
                            "`" + name + "` is a setting of executor=kubernetes-job, but the executor is process");
                }
            }
            return null;
        }
        if (!executor.equals("kubernetes-job")) {
            throw new ConfigException("`executor` must be process or kubernetes-job, not `" + executor + "`");
        }
        String namespace = values.get("job-namespace");
        if (namespace == null || namespace.isBlank()) {
            try {
                namespace = Files.readString(POD_NAMESPACE_FILE).trim();
            } catch (IOException e) {
                throw new ConfigException("`job-namespace` is not set and the agent does not run in a Kubernetes pod ("
                        + POD_NAMESPACE_FILE + " is missing): use --job-namespace=... or " + envName("job-namespace"));
            }
        }
        Path template = values.containsKey("job-pod-template") ? Path.of(values.get("job-pod-template")) : null;
        if (template != null && !Files.isReadable(template)) {
            throw new ConfigException("the job pod template " + template + " cannot be read");
        }
        return new Kubernetes(
                namespace,
                required(values, "job-image"),
                template,
                values.get("job-service-account"),
                duration(values.getOrDefault("job-start-timeout", "10m"), "job-start-timeout"),
                duration(values.getOrDefault("job-ttl", "10m"), "job-ttl"));
    }

    static String envName(String setting) {
        return "POLYSTACK_AGENT_" + setting.toUpperCase(Locale.ROOT).replace('-', '_');
    }

    private static String required(Map<String, String> values, String name) {
        String value = values.get(name);
        if (value == null || value.isBlank()) {
            throw new ConfigException("`" + name + "` is not set (" + SETTINGS.get(name) + "): use --" + name + "=..., "
                    + envName(name) + " or the config file");
        }
        return value;
    }

    private static URI uri(String value) {
        try {
            URI uri = URI.create(value.endsWith("/") ? value.substring(0, value.length() - 1) : value);
            if (uri.getScheme() == null
                    || !(uri.getScheme().equals("http") || uri.getScheme().equals("https"))
                    || uri.getHost() == null) {
                throw new IllegalArgumentException();
            }
            return uri;
        } catch (IllegalArgumentException e) {
            throw new ConfigException(
                    "`url` must be an http(s) URL such as https://polystack.example.com, not `" + value + "`");
        }
    }

    private static int positive(String value, String name) {
        try {
            int number = Integer.parseInt(value);
            if (number < 1) {
                throw new NumberFormatException();
            }
            return number;
        } catch (NumberFormatException e) {
            throw new ConfigException("`" + name + "` must be a positive number, not `" + value + "`");
        }
    }

    static Duration duration(String value, String name) {
        String text = value.trim().toLowerCase(Locale.ROOT);
        try {
            if (text.endsWith("ms")) {
                return Duration.ofMillis(Long.parseLong(text.substring(0, text.length() - 2)));
            }
            if (text.endsWith("m")) {
                return Duration.ofMinutes(Long.parseLong(text.substring(0, text.length() - 1)));
            }
            if (text.endsWith("s")) {
                return Duration.ofSeconds(Long.parseLong(text.substring(0, text.length() - 1)));
            }
            return Duration.ofSeconds(Long.parseLong(text));
        } catch (NumberFormatException e) {
            throw new ConfigException(
                    "`" + name + "` must be a duration such as 30s, 2m or 500ms, not `" + value + "`");
        }
    }

    /** A setting that is missing or wrong; the message says which and how to fix it. */
    public static final class ConfigException extends RuntimeException {
        public ConfigException(String message) {
            super(message);
        }
    }
}
