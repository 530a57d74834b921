package dev.polystack.runner;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;

import java.io.IOException;
import java.nio.file.Path;
import java.security.PrivateKey;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.logging.ConsoleHandler;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

/**
 * {@code java -jar runner-agent.jar [run] --url=... --org=... --runner=...} runs the agent;
 * {@code keygen [--key-file=...]} makes a key pair and prints the public key to register.
 */
public final class Main {

    private Main() {
    }

    public static void main(String[] args) {
        List<String> arguments = Arrays.asList(args);
        String command = arguments.isEmpty() || arguments.get(0).startsWith("--") ? "run" : arguments.get(0);
        List<String> rest = arguments.isEmpty() || arguments.get(0).startsWith("--") ? arguments : arguments.subList(1, arguments.size());
        try {
            switch (command) {
                case "run" -> run(rest);
                case "keygen" -> keygen(rest);
                case "execute" -> System.exit(execute(rest));
                case "help", "--help", "-h" -> help();
                default -> {
                    System.err.println("unknown command `" + command + "`; use run, keygen, execute or help");
                    System.exit(2);
                }
            }
        } catch (AgentConfig.ConfigException e) {
            System.err.println("polystack runner-agent: " + e.getMessage());
            System.exit(2);
        }
    }

    private static void run(List<String> args) {
        AgentConfig config = AgentConfig.load(args, System.getenv());
        configureLogging(config.logLevel());
        PrivateKey key = Keys.load(config.keyFile());
        // in kubernetes-job mode tofu runs in the job pods, not here
        String version = config.kubernetesJobs() ? null : tofuVersion(config.tofu());
        ControlPlane controlPlane = new ControlPlane(config.url(), config.org(), config.runner(), config.audience(), key);
        try {
            controlPlane.checkReachable();
            controlPlane.heartbeat(UUID.randomUUID());
        } catch (ControlPlane.LeaseLostException e) {
            // 404 for a job that does not exist: the credentials were accepted
        } catch (ControlPlane.RejectedException e) {
            throw new AgentConfig.ConfigException(e.getMessage());
        } catch (IOException e) {
            throw new AgentConfig.ConfigException(e.getMessage());
        }
        Agent.Jobs jobs;
        if (config.kubernetesJobs()) {
            KubernetesClient kube = new KubernetesClientBuilder().build();
            checkKubernetes(kube, config);
            jobs = (job, shutdown) -> new KubernetesJob(config, controlPlane, job, shutdown, kube);
        } else {
            Logger.getLogger(Main.class.getName()).info("OpenTofu " + version + " at `" + config.tofu() + "`");
            jobs = (job, shutdown) -> new ProcessJob(config, controlPlane, job, shutdown);
        }
        Agent agent = new Agent(config, controlPlane, jobs);
        Runtime.getRuntime().addShutdownHook(new Thread(agent::shutdown, "shutdown"));
        agent.start();
        try {
            agent.awaitTermination();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Fails at start when the agent may not manage Jobs in its namespace, instead of at the first job. */
    private static void checkKubernetes(KubernetesClient kube, AgentConfig config) {
        String namespace = config.jobNamespace();
        try {
            kube.batch().v1().jobs().inNamespace(namespace).withLabel("app.kubernetes.io/managed-by", "polystack-runner-agent").list();
        } catch (KubernetesClientException e) {
            throw new AgentConfig.ConfigException("cannot list Jobs in namespace `" + namespace + "` of " + kube.getMasterUrl()
                    + " (" + (e.getCode() == 403 ? "forbidden: give the agent's service account the Role of the polystack-runner chart"
                    : e.getMessage()) + ")");
        }
        Logger.getLogger(Main.class.getName()).info("jobs run as Kubernetes Jobs in `" + namespace + "` at " + kube.getMasterUrl()
                + " with image " + config.kubernetes().image());
    }

    private static int execute(List<String> args) {
        configureLogging("WARNING");
        try {
            return PodExecution.execute(args);
        } catch (IOException e) {
            System.err.println("polystack runner-agent execute: " + e.getMessage());
            return 1;
        }
    }

    /** The version of the tofu binary, or a clear error when there is none. */
    static String tofuVersion(String binary) {
        try {
            Process process = new ProcessBuilder(binary, "version", "-json").redirectErrorStream(true).start();
            String out = new String(process.getInputStream().readAllBytes());
            if (!process.waitFor(30, TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new AgentConfig.ConfigException("`" + binary + " version -json` failed: " + out.strip());
            }
            JsonNode version;
            try {
                version = new ObjectMapper().readTree(out);
            } catch (IOException e) {
                version = null;
            }
            if (version == null || !version.has("terraform_version")) {
                throw new AgentConfig.ConfigException("`" + binary + " version -json` did not print OpenTofu's version JSON;"
                        + " install OpenTofu >= 1.6 or set --tofu=/path/to/tofu (POLYSTACK_AGENT_TOFU)");
            }
            return version.path("terraform_version").asText();
        } catch (IOException e) {
            throw new AgentConfig.ConfigException("the OpenTofu binary `" + binary + "` cannot be run (" + e.getMessage()
                    + "): install OpenTofu >= 1.6 or set --tofu=/path/to/tofu (POLYSTACK_AGENT_TOFU); terraform works too");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AgentConfig.ConfigException("interrupted");
        }
    }

    private static void keygen(List<String> args) {
        Path file = Path.of(System.getProperty("user.home"), ".polystack-agent", "runner.key");
        for (String arg : args) {
            if (arg.startsWith("--key-file=")) {
                file = Path.of(arg.substring("--key-file=".length()));
            } else {
                throw new AgentConfig.ConfigException("keygen takes only --key-file=FILE");
            }
        }
        try {
            String publicKey = Keys.generate(file);
            System.err.println("Wrote the private key to " + file + " (keep it here) and the public key to " + file + ".pub.");
            System.err.println("Register the runner with this public key (the runners API takes it as public_key):");
            System.out.print(publicKey);
        } catch (IOException e) {
            throw new AgentConfig.ConfigException(e.getMessage());
        }
    }

    private static void help() {
        System.out.println("usage: java -jar runner-agent.jar [run] --url=URL --org=ORG --runner=ID [--name=value ...]");
        System.out.println("       java -jar runner-agent.jar keygen [--key-file=FILE]");
        System.out.println("       java -jar runner-agent.jar execute --payload=FILE   (what a kubernetes-job pod runs)");
        System.out.println("settings (also POLYSTACK_AGENT_<NAME>, or a properties file via --config FILE):");
        for (Map.Entry<String, String> setting : AgentConfig.SETTINGS.entrySet()) {
            System.out.printf("  %-16s %s%n", setting.getKey(), setting.getValue());
        }
    }

    private static void configureLogging(String level) {
        System.setProperty("java.util.logging.SimpleFormatter.format", "%1$tFT%1$tT.%1$tL %4$-7s %5$s%6$s%n");
        Logger root = Logger.getLogger("");
        Arrays.stream(root.getHandlers()).forEach(root::removeHandler);
        ConsoleHandler handler = new ConsoleHandler();
        handler.setFormatter(new SimpleFormatter());
        Level parsed;
        try {
            parsed = Level.parse(level.equals("DEBUG") ? "FINE" : level.equals("WARN") ? "WARNING" : level);
        } catch (IllegalArgumentException e) {
            throw new AgentConfig.ConfigException("`log-level` must be INFO, FINE (debug) or WARNING, not `" + level + "`");
        }
        handler.setLevel(parsed);
        root.setLevel(parsed);
        root.addHandler(handler);
    }
}
