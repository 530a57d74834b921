package dev.polystack.runner;

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
import java.util.logging.ConsoleHandler;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

/**
 * {@code java -jar runner-agent.jar [run] --url=... --org=... --runner=...} runs the agent;
 * {@code keygen [--key-file=...]} makes a key pair and prints the public key to register.
 */
public final class Main {

    private Main() {}

    public static void main(String[] args) {
        List<String> arguments = Arrays.asList(args);
        String command = arguments.isEmpty() || arguments.get(0).startsWith("--") ? "run" : arguments.get(0);
        List<String> rest = arguments.isEmpty() || arguments.get(0).startsWith("--")
                ? arguments
                : arguments.subList(1, arguments.size());
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
        AgentConfig loaded = AgentConfig.load(args, System.getenv());
        configureLogging(loaded.logLevel());
        PrivateKey key = Keys.load(loaded.keyFile());
        // in kubernetes-job mode tofu runs in the job pods, not here
        Logger log = Logger.getLogger(Main.class.getName());
        TofuBinary binary = loaded.kubernetesJobs()
                ? null
                : TofuBinary.find(
                        loaded.tofu(), System.getenv("PATH"), line -> log.warning("on stderr of `version`: " + line));
        AgentConfig config = binary == null ? loaded : loaded.withTofu(binary.path());
        ControlPlane controlPlane =
                new ControlPlane(config.url(), config.org(), config.runner(), config.audience(), key);
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
        WorkRoot workRoot = null;
        if (config.kubernetesJobs()) {
            KubernetesClient kube = new KubernetesClientBuilder().build();
            checkKubernetes(kube, config);
            jobs = (job, shutdown) -> new KubernetesJob(config, controlPlane, job, shutdown, kube);
        } else {
            log.info(binary.describe());
            workRoot = WorkRoot.claim(config.workDir());
            List<String> leftovers = workRoot.removeLeftovers();
            if (!leftovers.isEmpty()) {
                log.info("removed " + leftovers.size() + " work director" + (leftovers.size() == 1 ? "y" : "ies")
                        + " that an earlier agent process left in " + config.workDir() + ": "
                        + String.join(", ", leftovers));
            }
            jobs = (job, shutdown) -> new ProcessJob(config, controlPlane, job, shutdown);
        }
        Agent agent = new Agent(config, controlPlane, jobs);
        Runtime.getRuntime().addShutdownHook(new Thread(agent::shutdown, "shutdown"));
        agent.start();
        try {
            agent.awaitTermination();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            // held until every job ended: the lock says this process owns the work directory
            closeQuietly(workRoot);
        }
    }

    private static void closeQuietly(WorkRoot workRoot) {
        if (workRoot != null) {
            try {
                workRoot.close();
            } catch (IOException e) {
                // the process is ending; the lock goes with it
            }
        }
    }

    /** Fails at start when the agent may not manage Jobs in its namespace, instead of at the first job. */
    private static void checkKubernetes(KubernetesClient kube, AgentConfig config) {
        String namespace = config.jobNamespace();
        try {
            kube.batch()
                    .v1()
                    .jobs()
                    .inNamespace(namespace)
                    .withLabel("app.kubernetes.io/managed-by", "polystack-runner-agent")
                    .list();
        } catch (KubernetesClientException e) {
            throw new AgentConfig.ConfigException(
                    "cannot list Jobs in namespace `" + namespace + "` of " + kube.getMasterUrl()
                            + " ("
                            + (e.getCode() == 403
                                    ? "forbidden: give the agent's service account the Role of the polystack-runner chart"
                                    : e.getMessage())
                            + ")");
        }
        Logger.getLogger(Main.class.getName())
                .info("jobs run as Kubernetes Jobs in `" + namespace + "` at " + kube.getMasterUrl() + " with image "
                        + config.kubernetes().image());
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
            System.err.println(
                    "Wrote the private key to " + file + " (keep it here) and the public key to " + file + ".pub.");
            System.err.println("Register the runner with this public key (the runners API takes it as public_key):");
            System.out.print(publicKey);
        } catch (IOException e) {
            throw new AgentConfig.ConfigException(e.getMessage());
        }
    }

    private static void help() {
        System.out.println(
                "usage: java -jar runner-agent.jar [run] --url=URL --org=ORG --runner=ID [--name=value ...]");
        System.out.println("       java -jar runner-agent.jar keygen [--key-file=FILE]");
        System.out.println(
                "       java -jar runner-agent.jar execute --payload=FILE   (what a kubernetes-job pod runs)");
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
            throw new AgentConfig.ConfigException(
                    "`log-level` must be INFO, FINE (debug) or WARNING, not `" + level + "`");
        }
        handler.setLevel(parsed);
        root.setLevel(parsed);
        root.addHandler(handler);
    }
}
