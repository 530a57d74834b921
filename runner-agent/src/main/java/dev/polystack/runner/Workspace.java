package dev.polystack.runner;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.polystack.runner.protocol.ClaimedJob;
import dev.polystack.runner.protocol.Operation;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * A job's working directory (mode 0700, removed afterwards): a root module {@code main.tf.json} with
 * the {@code http} backend, the providers, one {@code module "main"} call and an output per declared
 * output; the inputs as variables in {@code polystack.auto.tfvars.json} (sensitive ones declared so);
 * inline module code in {@code module/}. State credentials go in the environment, never in files.
 */
public final class Workspace {

    /** Retries of each state request: waits of 1, 2, 4, 8, 16 and then 20 s, about 111 s in all. */
    static final int STATE_RETRY_MAX = 9;

    static final String PLAN_FILE = "polystack.tfplan";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path dir;

    private Workspace(Path dir) {
        this.dir = dir;
    }

    public Path dir() {
        return dir;
    }

    public static Workspace create(Path workRoot, ClaimedJob job) throws IOException {
        Files.createDirectories(workRoot);
        Path dir = workRoot.resolve(job.jobId().toString());
        if (Files.exists(dir)) {
            delete(dir);
        }
        Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        Workspace workspace = new Workspace(dir);
        workspace.write(job);
        return workspace;
    }

    /**
     * The environment tofu runs with: the runner's own variables (provider credentials), non-interactive
     * mode, the shared plugin cache, the CLI configuration, and the state backend credentials.
     */
    public Map<String, String> environment(ClaimedJob job, AgentConfig config) throws IOException {
        return environment(job, config.tofuEnvironment(), config.pluginCacheDir(), config.cliConfig());
    }

    /** The same, from its parts (a Kubernetes job pod has no agent configuration of its own). */
    public Map<String, String> environment(
            ClaimedJob job, Map<String, String> tofuEnvironment, Path pluginCacheDir, Path cliConfig)
            throws IOException {
        Map<String, String> env = new HashMap<>(tofuEnvironment);
        Files.createDirectories(pluginCacheDir);
        env.put("TF_PLUGIN_CACHE_DIR", pluginCacheDir.toAbsolutePath().toString());
        if (cliConfig != null) {
            env.put("TF_CLI_CONFIG_FILE", cliConfig.toAbsolutePath().toString());
        }
        env.put("TF_IN_AUTOMATION", "1");
        env.put("TF_INPUT", "0");
        env.put("TF_HTTP_USERNAME", job.state().username());
        env.put("TF_HTTP_PASSWORD", job.state().password());
        env.put("TF_DATA_DIR", dir.resolve(".terraform").toString());
        return env;
    }

    private void write(ClaimedJob job) throws IOException {
        ObjectNode root = JSON.createObjectNode();
        ObjectNode terraform = root.putObject("terraform");
        ObjectNode http = terraform.putObject("backend").putObject("http");
        http.put("address", job.state().address());
        http.put("update_method", "POST");
        http.put("lock_address", job.state().lockAddress());
        http.put("lock_method", "LOCK");
        http.put("unlock_address", job.state().unlockAddress());
        http.put("unlock_method", "UNLOCK");
        // ride out a restart of the control plane (a new replica, a crash): up to about two minutes of retries
        http.put("retry_max", STATE_RETRY_MAX);
        http.put("retry_wait_min", 1);
        http.put("retry_wait_max", 20);
        ObjectNode required = terraform.putObject("required_providers");
        ObjectNode providers = JSON.createObjectNode();
        for (ClaimedJob.Provider provider : job.providers()) {
            ObjectNode requirement = required.putObject(provider.name());
            requirement.put("source", provider.source());
            if (provider.versionConstraint() != null
                    && !provider.versionConstraint().isBlank()) {
                requirement.put("version", provider.versionConstraint());
            }
            ArrayNode blocks = providers.putArray(provider.name());
            blocks.add(
                    provider.configuration() == null || provider.configuration().isNull()
                            ? JSON.createObjectNode()
                            : provider.configuration());
        }
        if (!providers.isEmpty()) {
            root.set("provider", providers);
        }

        Set<String> sensitive =
                new HashSet<>(job.sensitiveInputs() == null ? Set.of() : Set.copyOf(job.sensitiveInputs()));
        ObjectNode variables = JSON.createObjectNode();
        ObjectNode values = JSON.createObjectNode();
        ObjectNode module = JSON.createObjectNode();
        module.put("source", job.module().isInline() ? "./module" : job.module().source());
        if (job.inputs() != null) {
            job.inputs().fields().forEachRemaining(input -> {
                ObjectNode variable = variables.putObject(input.getKey());
                if (sensitive.contains(input.getKey())) {
                    variable.put("sensitive", true);
                }
                values.set(input.getKey(), input.getValue());
                module.put(input.getKey(), "${var." + input.getKey() + "}");
            });
        }
        if (!variables.isEmpty()) {
            root.set("variable", variables);
        }
        root.putObject("module").set("main", module);
        if (job.outputs() != null && !job.outputs().isEmpty() && job.operation() != Operation.DESTROY) {
            ObjectNode outputs = root.putObject("output");
            for (String name : job.outputs()) {
                // every output is declared sensitive so that none is printed; which ones the module itself
                // marks sensitive is read from the plan's configuration afterwards
                outputs.putObject(name)
                        .put("value", "${module.main." + name + "}")
                        .put("sensitive", true);
            }
        }
        Files.writeString(
                dir.resolve("main.tf.json"),
                JSON.writerWithDefaultPrettyPrinter().writeValueAsString(root));
        Files.writeString(dir.resolve("polystack.auto.tfvars.json"), JSON.writeValueAsString(values));
        if (job.module().isInline()) {
            Path moduleDir = Files.createDirectory(dir.resolve("module"));
            String code = job.module().code() == null ? "" : job.module().code();
            Files.writeString(
                    moduleDir.resolve(code.stripLeading().startsWith("{") ? "main.tf.json" : "main.tf"), code);
        }
    }

    public void delete() {
        try {
            delete(dir);
        } catch (IOException e) {
            ControlPlane.log().warning("could not remove the workspace " + dir + ": " + e.getMessage());
        }
    }

    /** Removes a file or a directory tree. */
    static void delete(Path dir) throws IOException {
        if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            Files.delete(dir);
            return;
        }
        Files.walkFileTree(dir, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.delete(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path d, IOException exc) throws IOException {
                Files.delete(d);
                return FileVisitResult.CONTINUE;
            }
        });
    }

    static JsonNode read(Path file) throws IOException {
        return JSON.readTree(file.toFile());
    }
}
