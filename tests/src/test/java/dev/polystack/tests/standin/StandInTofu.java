package dev.polystack.tests.standin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static dev.polystack.tests.standin.UiStream.ADDRESS;
import static dev.polystack.tests.standin.UiStream.OUT;
import static dev.polystack.tests.standin.UiStream.complete;
import static dev.polystack.tests.standin.UiStream.diagnostic;
import static dev.polystack.tests.standin.UiStream.diagnosticAndExit;
import static dev.polystack.tests.standin.UiStream.hook;
import static dev.polystack.tests.standin.UiStream.message;
import static dev.polystack.tests.standin.UiStream.resourceAddr;
import static dev.polystack.tests.standin.UiStream.summary;
import static dev.polystack.tests.standin.UiStream.verb;
import static dev.polystack.tests.standin.UiStream.versionMessage;

/**
 * An honest stand-in for the {@code tofu} CLI, for machines where OpenTofu cannot be installed. It
 * understands the root module the agent writes ({@code main.tf.json} with an {@code http} backend and
 * one {@code module "main"}), simulates that module as one {@code terraform_data} resource whose
 * input is the module's inputs, and speaks the real formats: the {@code -json} UI stream
 * (version, refresh, planned_change, apply_start/progress/complete/errored, change_summary, outputs,
 * diagnostic), {@code show -json} of plans and states, {@code output -json}, v4 state files, and the
 * HTTP state backend protocol (LOCK, GET, POST ?ID=, UNLOCK with Basic credentials from TF_HTTP_*).
 *
 * <p>A test double, never shipped. Inputs that steer it: {@code fail_at} = plan | apply makes that step
 * fail with an error diagnostic; {@code apply_ms} makes the apply take that long (SIGINT stops it
 * gracefully, as tofu does); {@code sensitive_outputs} lists outputs the module marks sensitive. An
 * output takes the value of the input of the same name, or {@code "<output>-<value of input name>"}.
 *
 * <p>Drift: the input {@code drift_file} names a file holding a JSON object, the change "someone made outside":
 * merged into the resource's recorded {@code input} it is what a refresh finds. A plan then reports it in
 * {@code resource_drift} and plans an update that puts it back (with {@code -refresh-only}, no change); an apply
 * puts the world back by emptying the file. {@code -detailed-exitcode} exits 2 when the plan has changes (with
 * {@code -refresh-only}: when something drifted), as tofu does.
 */
public final class StandInTofu {

    static final String VERSION = "1.8.0";
    static final ObjectMapper JSON = new ObjectMapper();
    private static volatile boolean interrupted;

    private final Path dir = Path.of("").toAbsolutePath();
    private HttpStateBackend backend;

    public static void main(String[] args) throws Exception {
        sun.misc.Signal.handle(new sun.misc.Signal("INT"), signal -> interrupted = true);
        List<String> arguments = List.of(args);
        if (arguments.isEmpty()) {
            System.err.println("Usage: tofu [global options] <subcommand> [args]");
            System.exit(1);
        }
        StandInTofu tofu = new StandInTofu();
        int code = switch (arguments.get(0)) {
            case "version" -> tofu.version(arguments);
            case "init" -> tofu.init();
            case "plan" -> tofu.plan(arguments);
            case "show" -> tofu.show(arguments);
            case "apply" -> tofu.apply(arguments);
            case "output" -> tofu.output();
            case "destroy" -> tofu.destroy(arguments);
            default -> {
                System.err.println("Error: the stand-in does not implement `" + arguments.get(0) + "`");
                yield 1;
            }
        };
        System.exit(code);
    }

    private int version(List<String> args) {
        if (args.contains("-json")) {
            OUT.println("{\"terraform_version\":\"" + VERSION
                    + "\",\"platform\":\"linux_amd64\",\"provider_selections\":{},"
                    + "\"terraform_outdated\":false,\"polystack_stand_in\":true}");
        } else {
            OUT.println("OpenTofu v" + VERSION + " (Polystack stand-in)");
        }
        return 0;
    }

    private int init() throws IOException {
        JsonNode root = root();
        JsonNode module = root.path("module").path("main");
        String source = module.path("source").asText();
        OUT.println("Initializing the backend...");
        if (!root.path("terraform").path("backend").has("http")) {
            System.err.println("Error: the stand-in only supports the http backend");
            return 1;
        }
        OUT.println();
        OUT.println("Successfully configured the backend \"http\"! OpenTofu will automatically");
        OUT.println("use this backend unless the backend configuration changes.");
        OUT.println("Initializing modules...");
        if (!source.startsWith("./")) {
            System.err.println("Error: Failed to download module: the stand-in cannot fetch `" + source + "`");
            return 1;
        }
        Path moduleDir = dir.resolve(source);
        if (!Files.exists(moduleDir.resolve("main.tf")) && !Files.exists(moduleDir.resolve("main.tf.json"))) {
            System.err.println("Error: Unreadable module directory " + moduleDir);
            return 1;
        }
        OUT.println("- main in " + source.substring(2));
        OUT.println("Initializing provider plugins...");
        root.path("terraform")
                .path("required_providers")
                .fields()
                .forEachRemaining(p -> OUT.println(
                        "- Installing " + p.getValue().path("source").asText() + " (stand-in, nothing downloaded)"));
        Files.createDirectories(dataDir());
        Files.writeString(
                dataDir().resolve("terraform.tfstate"),
                JSON.writeValueAsString(JSON.createObjectNode()
                        .put("version", 3)
                        .set("backend", root.path("terraform").path("backend").path("http"))));
        OUT.println();
        OUT.println("OpenTofu has been successfully initialized!");
        return 0;
    }

    private int plan(List<String> args) throws Exception {
        if (!Files.exists(dataDir())) {
            return diagnosticAndExit("Backend initialization required, please run \"tofu init\"", "");
        }
        versionMessage();
        boolean destroy = args.contains("-destroy");
        boolean refreshOnly = args.contains("-refresh-only");
        String out = args.stream()
                .filter(a -> a.startsWith("-out="))
                .map(a -> a.substring(5))
                .findFirst()
                .orElse(null);
        String lock = backend().lock("OperationTypePlan");
        try {
            ObjectNode state = backend().readState();
            JsonNode recorded = resource(state);
            ObjectNode inputs = inputs();
            // what a refresh finds: the recorded attributes with the change made outside, if any
            JsonNode existing = refreshed(recorded, inputs);
            boolean drifted = recorded != null && !recorded.equals(existing);
            if (existing != null) {
                message(
                        "info",
                        ADDRESS + ": Refreshing state... [id="
                                + existing.path("id").asText() + "]",
                        "refresh_start",
                        "hook",
                        hook("read", null));
                message(
                        "info",
                        ADDRESS + ": Refresh complete [id="
                                + existing.path("id").asText() + "]",
                        "refresh_complete",
                        "hook",
                        hook("read", null));
            }
            if (!destroy && "plan".equals(inputs.path("fail_at").asText())) {
                diagnostic("Invalid value for input", "fail_at is \"plan\": the stand-in was asked to fail the plan");
                return 1;
            }
            String action = refreshOnly
                    ? "noop"
                    : destroy
                            ? (existing == null ? "noop" : "delete")
                            : existing == null
                                    ? "create"
                                    : existing.path("input").equals(inputs) ? "noop" : "update";
            if (!action.equals("noop")) {
                ObjectNode change = JSON.createObjectNode();
                change.set("resource", resourceAddr());
                change.put("action", action);
                message("info", ADDRESS + ": Plan to " + action, "planned_change", "change", change);
            }
            int add = action.equals("create") ? 1 : 0;
            int change = action.equals("update") ? 1 : 0;
            int remove = action.equals("delete") ? 1 : 0;
            message(
                    "info",
                    "Plan: " + add + " to add, " + change + " to change, " + remove + " to destroy.",
                    "change_summary",
                    "changes",
                    summary(add, change, remove, "plan"));
            ObjectNode plan = JSON.createObjectNode();
            plan.put("action", action);
            plan.put("destroy", destroy);
            plan.set("inputs", inputs);
            plan.set("prior", existing);
            if (drifted) {
                plan.set("recorded", recorded);
            }
            if (out != null) {
                Files.writeString(dir.resolve(out), JSON.writeValueAsString(plan));
            }
            boolean changes = !action.equals("noop") || refreshOnly && drifted;
            return args.contains("-detailed-exitcode") && changes ? 2 : 0;
        } finally {
            backend().unlock(lock);
        }
    }

    private int show(List<String> args) throws Exception {
        List<String> files =
                args.stream().skip(1).filter(a -> !a.startsWith("-")).toList();
        if (files.isEmpty()) {
            OUT.println(JSON.writeValueAsString(
                    HttpStateBackend.stateRepresentation(backend().readState())));
            return 0;
        }
        JsonNode plan = JSON.readTree(dir.resolve(files.get(0)).toFile());
        ObjectNode show = JSON.createObjectNode();
        show.put("format_version", "1.2");
        show.put("terraform_version", VERSION);
        ObjectNode variables = show.putObject("variables");
        plan.path("inputs")
                .fields()
                .forEachRemaining(e -> variables.putObject(e.getKey()).set("value", e.getValue()));
        if (plan.hasNonNull("recorded")) {
            ObjectNode drift = show.putArray("resource_drift").addObject();
            drift.put("address", ADDRESS);
            drift.put("mode", "managed");
            drift.put("type", "terraform_data");
            drift.put("name", "this");
            drift.put("provider_name", "terraform.io/builtin/terraform");
            ObjectNode driftChange = drift.putObject("change");
            driftChange.putArray("actions").add("update");
            driftChange.set("before", plan.get("recorded"));
            driftChange.set("after", plan.path("prior"));
            driftChange.putObject("before_sensitive");
            driftChange.putObject("after_sensitive");
        }
        ArrayNode changes = show.putArray("resource_changes");
        String action = plan.path("action").asText();
        ObjectNode resourceChange = changes.addObject();
        resourceChange.put("address", ADDRESS);
        resourceChange.put("module_address", "module.main");
        resourceChange.put("mode", "managed");
        resourceChange.put("type", "terraform_data");
        resourceChange.put("name", "this");
        resourceChange.put("provider_name", "terraform.io/builtin/terraform");
        ObjectNode change = resourceChange.putObject("change");
        change.putArray("actions").add(action.equals("noop") ? "no-op" : action);
        change.set(
                "before",
                plan.path("prior").isMissingNode() || plan.path("prior").isNull()
                        ? JSON.nullNode()
                        : plan.path("prior"));
        change.set(
                "after",
                action.equals("delete") ? JSON.nullNode() : attributes(plan.path("inputs"), plan.path("prior")));
        change.put("after_unknown", false);
        change.put("before_sensitive", false);
        change.put("after_sensitive", false);
        ObjectNode outputs = JSON.createObjectNode();
        for (String name : declaredOutputs()) {
            outputs.putObject(name).put("sensitive", sensitiveInModule().contains(name));
        }
        ObjectNode call = show.putObject("configuration")
                .putObject("root_module")
                .putObject("module_calls")
                .putObject("main");
        call.put("source", "./module");
        call.putObject("module").set("outputs", outputs);
        show.put("errored", false);
        OUT.println(JSON.writeValueAsString(show));
        return 0;
    }

    private int apply(List<String> args) throws Exception {
        String planFile = args.stream()
                .skip(1)
                .filter(a -> !a.startsWith("-"))
                .findFirst()
                .orElse(null);
        if (planFile == null) {
            return diagnosticAndExit("No plan file", "the stand-in applies saved plans only");
        }
        versionMessage();
        JsonNode plan = JSON.readTree(dir.resolve(planFile).toFile());
        String action = plan.path("action").asText();
        boolean destroy = plan.path("destroy").asBoolean();
        String lock = backend().lock("OperationTypeApply");
        try {
            ObjectNode state = backend().readState();
            if (!action.equals("noop")) {
                ObjectNode change = JSON.createObjectNode();
                change.set("resource", resourceAddr());
                change.put("action", action);
                message("info", ADDRESS + ": Plan to " + action, "planned_change", "change", change);
                String hookAction = action.equals("delete") ? "delete" : action;
                message(
                        "info",
                        ADDRESS + ": " + verb(hookAction) + "...",
                        "apply_start",
                        "hook",
                        hook(hookAction, null));
                long applyMillis = plan.path("inputs").path("apply_ms").asLong(0);
                long start = System.currentTimeMillis();
                while (System.currentTimeMillis() - start < applyMillis) {
                    Thread.sleep(Math.min(100, applyMillis));
                    if (interrupted) {
                        message(
                                "info",
                                "Interrupt received.\nPlease wait for OpenTofu to exit or data loss may occur.\n"
                                        + "Gracefully shutting down...",
                                "log",
                                null,
                                null);
                        message(
                                "error",
                                ADDRESS + ": " + verb(hookAction) + " errored after "
                                        + (System.currentTimeMillis() - start) / 1000 + "s",
                                "apply_errored",
                                "hook",
                                hook(hookAction, 0.0));
                        diagnostic("execution halted", "");
                        return 1;
                    }
                }
                if (!destroy
                        && "apply".equals(plan.path("inputs").path("fail_at").asText())) {
                    message(
                            "error",
                            ADDRESS + ": Creation errored after 0s",
                            "apply_errored",
                            "hook",
                            hook(hookAction, 0.0));
                    diagnostic(
                            "creating terraform_data: the stand-in was asked to fail the apply",
                            "fail_at is \"apply\"");
                    return 1;
                }
                backend()
                        .writeState(
                                lock,
                                state,
                                destroy ? null : attributes(plan.path("inputs"), plan.path("prior")),
                                declaredOutputs());
                putBack(plan.path("inputs"));
                message(
                        "info",
                        ADDRESS + ": " + complete(hookAction) + " after 0s"
                                + (destroy
                                        ? ""
                                        : " [id="
                                                + state.path("resources")
                                                        .path(0)
                                                        .path("instances")
                                                        .path(0)
                                                        .path("attributes")
                                                        .path("id")
                                                        .asText()
                                                + "]"),
                        "apply_complete",
                        "hook",
                        hook(hookAction, 0.0));
            }
            int add = action.equals("create") ? 1 : 0;
            int change = action.equals("update") ? 1 : 0;
            int remove = action.equals("delete") ? 1 : 0;
            if (destroy) {
                message(
                        "info",
                        "Destroy complete! Resources: " + remove + " destroyed.",
                        "change_summary",
                        "changes",
                        summary(0, 0, remove, "destroy"));
            } else {
                message(
                        "info",
                        "Apply complete! Resources: " + add + " added, " + change + " changed, " + remove
                                + " destroyed.",
                        "change_summary",
                        "changes",
                        summary(add, change, remove, "apply"));
                ObjectNode outputs = JSON.createObjectNode();
                for (String name : declaredOutputs()) {
                    outputs.putObject(name).put("sensitive", true).put("type", "string");
                }
                message("info", "Outputs: " + outputs.size(), "outputs", "outputs", outputs);
            }
            return 0;
        } finally {
            backend().unlock(lock);
        }
    }

    /** {@code destroy -json -auto-approve}: the plan stream, then the destroy stream. */
    private int destroy(List<String> args) throws Exception {
        if (!args.contains("-auto-approve")) {
            return diagnosticAndExit("No approval", "destroy -json needs -auto-approve");
        }
        versionMessage();
        String lock = backend().lock("OperationTypeApply");
        try {
            ObjectNode state = backend().readState();
            JsonNode existing = resource(state);
            int remove = existing == null ? 0 : 1;
            if (existing != null) {
                message(
                        "info",
                        ADDRESS + ": Refreshing state... [id="
                                + existing.path("id").asText() + "]",
                        "refresh_start",
                        "hook",
                        hook("read", null));
                ObjectNode change = JSON.createObjectNode();
                change.set("resource", resourceAddr());
                change.put("action", "delete");
                message("info", ADDRESS + ": Plan to delete", "planned_change", "change", change);
            }
            message(
                    "info",
                    "Plan: 0 to add, 0 to change, " + remove + " to destroy.",
                    "change_summary",
                    "changes",
                    summary(0, 0, remove, "plan"));
            if (existing != null) {
                message(
                        "info",
                        ADDRESS + ": Destroying... [id=" + existing.path("id").asText() + "]",
                        "apply_start",
                        "hook",
                        hook("delete", null));
                backend().writeState(lock, state, null, declaredOutputs());
                message(
                        "info",
                        ADDRESS + ": Destruction complete after 0s",
                        "apply_complete",
                        "hook",
                        hook("delete", 0.0));
            }
            message(
                    "info",
                    "Destroy complete! Resources: " + remove + " destroyed.",
                    "change_summary",
                    "changes",
                    summary(0, 0, remove, "destroy"));
            return 0;
        } finally {
            backend().unlock(lock);
        }
    }

    private int output() throws Exception {
        ObjectNode state = backend().readState();
        ObjectNode outputs = JSON.createObjectNode();
        state.path("outputs").fields().forEachRemaining(e -> {
            ObjectNode output = outputs.putObject(e.getKey());
            output.put("sensitive", e.getValue().path("sensitive").asBoolean(false));
            output.set("type", e.getValue().path("type"));
            output.set("value", e.getValue().path("value"));
        });
        OUT.println(JSON.writerWithDefaultPrettyPrinter().writeValueAsString(outputs));
        return 0;
    }

    // ------------------------------------------------------------------ the simulated module

    private ObjectNode attributes(JsonNode inputs, JsonNode prior) {
        ObjectNode attributes = JSON.createObjectNode();
        attributes.put(
                "id",
                prior != null && prior.hasNonNull("id")
                        ? prior.get("id").asText()
                        : UUID.randomUUID().toString());
        attributes.set("input", inputs);
        attributes.set("output", inputs);
        attributes.putNull("triggers_replace");
        return attributes;
    }

    /** The recorded attributes as a refresh finds them: with the change in {@code drift_file} merged into {@code input}. */
    private JsonNode refreshed(JsonNode recorded, JsonNode inputs) throws IOException {
        if (recorded == null || !inputs.hasNonNull("drift_file")) {
            return recorded;
        }
        Path file = Path.of(inputs.get("drift_file").asText());
        String text = Files.exists(file) ? Files.readString(file).trim() : "";
        if (text.isEmpty()) {
            return recorded;
        }
        ObjectNode world = recorded.deepCopy();
        ObjectNode input = world.path("input").isObject() ? (ObjectNode) world.get("input") : world.putObject("input");
        JSON.readTree(text).fields().forEachRemaining(e -> input.set(e.getKey(), e.getValue()));
        return world;
    }

    /** An apply makes the world what the configuration says: the change made outside is gone. */
    private void putBack(JsonNode inputs) throws IOException {
        if (inputs.hasNonNull("drift_file")
                && Files.exists(Path.of(inputs.get("drift_file").asText()))) {
            Files.writeString(Path.of(inputs.get("drift_file").asText()), "");
        }
    }

    private Set<String> declaredOutputs() throws IOException {
        Set<String> names = new TreeSet<>();
        root().path("output").fieldNames().forEachRemaining(names::add);
        return names;
    }

    /** Outputs the inline module marks {@code sensitive = true}, and those the {@code sensitive_outputs} input names. */
    private Set<String> sensitiveInModule() throws IOException {
        Set<String> sensitive = new TreeSet<>();
        inputs().path("sensitive_outputs").forEach(name -> sensitive.add(name.asText()));
        Path hcl = dir.resolve("module/main.tf");
        Path json = dir.resolve("module/main.tf.json");
        if (Files.exists(json)) {
            JSON.readTree(json.toFile()).path("output").fields().forEachRemaining(e -> {
                if (e.getValue().path("sensitive").asBoolean(false)) {
                    sensitive.add(e.getKey());
                }
            });
        } else if (Files.exists(hcl)) {
            Matcher blocks = Pattern.compile("output\\s+\"([^\"]+)\"\\s*\\{([^}]*)}", Pattern.DOTALL)
                    .matcher(Files.readString(hcl));
            while (blocks.find()) {
                if (blocks.group(2).matches("(?s).*\\bsensitive\\s*=\\s*true\\b.*")) {
                    sensitive.add(blocks.group(1));
                }
            }
        }
        return sensitive;
    }

    private ObjectNode inputs() throws IOException {
        Path values = dir.resolve("polystack.auto.tfvars.json");
        return Files.exists(values) ? (ObjectNode) JSON.readTree(values.toFile()) : JSON.createObjectNode();
    }

    private JsonNode resource(ObjectNode state) {
        for (JsonNode resource : state.path("resources")) {
            if ("module.main".equals(resource.path("module").asText())
                    && "this".equals(resource.path("name").asText())) {
                return resource.path("instances").path(0).path("attributes");
            }
        }
        return null;
    }

    /** The state backend the root module configures (read once, at first use: init writes nothing to it). */
    private HttpStateBackend backend() throws IOException {
        if (backend == null) {
            backend = new HttpStateBackend(
                    root().path("terraform").path("backend").path("http"));
        }
        return backend;
    }

    private JsonNode root() throws IOException {
        return JSON.readTree(dir.resolve("main.tf.json").toFile());
    }

    private Path dataDir() {
        String configured = System.getenv("TF_DATA_DIR");
        return configured == null ? dir.resolve(".terraform") : Path.of(configured);
    }

    /** The stand-in's launcher script for a classpath, written into {@code dir} as {@code tofu}. */
    public static Path writeLauncher(Path dir, String classpath) throws IOException {
        Files.createDirectories(dir);
        Path script = dir.resolve("tofu");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Files.writeString(
                script,
                "#!/bin/sh\nexec '" + java + "' -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xshare:auto -cp '" + classpath
                        + "' " + StandInTofu.class.getName() + " \"$@\"\n");
        script.toFile().setExecutable(true);
        return script;
    }
}
