package dev.polystack.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.polystack.cli.ConfigPlan.Action;
import dev.polystack.cli.ConfigPlan.Change;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;

@Command(
        name = "config",
        mixinStandardHelpOptions = true,
        description =
                "Keep the platform's configuration in git: YAML documents, one object each, with its `kind` (EnvType, ResourceType,"
                        + " Provider, Module, ModuleRule, Runner, RunnerRule, Project, Environment). Secrets come from ${env:NAME}.",
        subcommands = {ConfigCommand.Plan.class, ConfigCommand.Apply.class, ConfigCommand.Sync.class})
class ConfigCommand {

    /** What an object written by configuration as code says manages it, unless --managed-by names another. */
    static final String DEFAULT_MANAGER = "polystack-config";

    @ParentCommand
    Main main;

    /** The options every config command shares, and the steps they share: read, fetch, plan. */
    static class Base extends Connection implements Callable<Integer> {

        @Spec
        CommandSpec spec;

        @Option(
                names = {"-f", "--file"},
                required = true,
                description = "A YAML file or a directory of them; repeat for several.")
        List<String> files;

        @Option(
                names = "--org",
                description = "The organization (default: the one of --env or of the context's environment).")
        String org;

        @Option(
                names = "--managed-by",
                defaultValue = DEFAULT_MANAGER,
                description =
                        "What this configuration calls itself; written on every object it creates or updates, and the objects a sync"
                                + " may delete (default: ${DEFAULT-VALUE}).")
        String managedBy;

        @Option(
                names = "--rotate-secrets",
                description = "Send secret values again (otherwise only added or removed secret names count).")
        boolean rotateSecrets;

        boolean sync() {
            return false;
        }

        boolean allowDestroy() {
            return false;
        }

        String organization() {
            return org != null ? org : target().org();
        }

        PrintWriter out() {
            return spec.commandLine().getOut();
        }

        ConfigPlan plan(Client client, String organization) {
            if (!managedBy.matches("^[a-zA-Z0-9]([a-zA-Z0-9._-]{0,61}[a-zA-Z0-9])?$")) {
                throw CliException.badInput("--managed-by must be 1-63 letters, digits, dots, dashes or underscores");
            }
            Map<String, String> environment = main().environment;
            List<ConfigDocuments.Desired> documents = ConfigDocuments.read(files, environment::get);
            Set<ConfigKind> kinds = EnumSet.noneOf(ConfigKind.class);
            documents.forEach(d -> kinds.add(d.kind()));
            return ConfigPlan.of(
                    documents, current(client, organization, kinds), managedBy, sync(), rotateSecrets, allowDestroy());
        }

        /** The objects of the given kinds the organization has now (and its modules, which module rules are matched by). */
        static Map<ConfigKind, List<JsonNode>> current(Client client, String organization, Set<ConfigKind> kinds) {
            Map<ConfigKind, List<JsonNode>> current = new EnumMap<>(ConfigKind.class);
            Set<ConfigKind> read = EnumSet.copyOf(kinds);
            if (kinds.contains(ConfigKind.MODULE_RULE)) {
                read.add(ConfigKind.MODULE);
            }
            for (ConfigKind kind : read) {
                List<JsonNode> objects = new ArrayList<>();
                if (kind == ConfigKind.ENVIRONMENT) {
                    List<String> projects = new ArrayList<>();
                    client.items(
                            ConfigKind.PROJECT.collectionPath(organization, null),
                            p -> projects.add(p.path("id").asText()));
                    for (String project : projects) {
                        client.items(kind.collectionPath(organization, project), objects::add);
                    }
                } else {
                    client.items(kind.collectionPath(organization, null), objects::add);
                }
                current.put(kind, objects);
            }
            return current;
        }

        void print(ConfigPlan plan, String organization) {
            PrintWriter out = out();
            out.println("Organization " + organization + ", managed by " + managedBy + ":");
            plan.changes().stream()
                    .filter(c -> c.action() != Action.UNCHANGED)
                    .forEach(c -> out.println("  " + c.line()));
            out.println(plan.summary());
        }

        /**
         * Makes the plan's changes in one transaction (the API's configuration batch): creates and updates in
         * the kinds' order, then deletes in the reverse order; if one fails, none is made. Environments to
         * delete go first, one at a time, as deleting one destroys its resources: a project whose environments
         * are still being destroyed is left for the next sync.
         */
        int apply(Client client, String organization, ConfigPlan plan) {
            if (plan.count(Action.BLOCKED) > 0) {
                print(plan, organization);
                throw CliException.badInput("nothing was applied: a change above is blocked");
            }
            PrintWriter out = out();
            Set<String> destroying = new TreeSet<>();
            for (Change change : plan.changes()) {
                if (change.action() == Action.DELETE && change.kind() == ConfigKind.ENVIRONMENT) {
                    JsonNode answer = client.delete(change.kind().objectPath(organization, change.current()));
                    if (answer.isObject()) {
                        destroying.add(change.current().path("project_id").asText());
                        out.println("  destroying " + change.name() + " (deployment "
                                + answer.path("id").asText() + "; it is deleted once that succeeds)");
                    } else {
                        out.println("  " + done(change));
                    }
                }
            }
            List<Change> made = new ArrayList<>(plan.changes().stream()
                    .filter(c -> EnumSet.of(Action.CREATE, Action.UPDATE, Action.REPLACE)
                            .contains(c.action()))
                    .toList());
            for (Change change : plan.changes()) {
                if (change.action() != Action.DELETE || change.kind() == ConfigKind.ENVIRONMENT) {
                    continue;
                }
                if (change.kind() == ConfigKind.PROJECT
                        && destroying.contains(change.current().path("id").asText())) {
                    out.println("  ! " + change.name()
                            + " (its environments are being destroyed; the next sync deletes it)");
                } else {
                    made.add(change);
                }
            }
            List<Map<String, Object>> batch = new ArrayList<>();
            String base = "/api/v1/orgs/" + organization;
            for (Change change : made) {
                String collection = change.kind()
                        .collectionPath(
                                organization,
                                change.desired() == null
                                        ? null
                                        : change.desired()
                                                .object()
                                                .path("project_id")
                                                .asText(null))
                        .substring(base.length());
                String object = change.current() == null
                        ? null
                        : change.kind()
                                .objectPath(organization, change.current())
                                .substring(base.length());
                switch (change.action()) {
                    case CREATE ->
                        batch.add(call("POST", collection, ConfigPlan.body(change, managedBy, rotateSecrets)));
                    case UPDATE ->
                        batch.add(call(
                                change.kind().isRule() ? "PATCH" : "PUT",
                                object,
                                ConfigPlan.body(change, managedBy, rotateSecrets)));
                    case REPLACE -> {
                        batch.add(call("DELETE", object, null));
                        batch.add(call("POST", collection, ConfigPlan.body(change, managedBy, rotateSecrets)));
                    }
                    default -> batch.add(call("DELETE", object, null));
                }
            }
            if (!batch.isEmpty()) {
                client.post(base + "/configuration/batch", Map.of("changes", batch));
            }
            made.forEach(change -> out.println("  " + done(change)));
            plan.changes().stream().filter(c -> c.action() == Action.KEEP).forEach(c -> out.println("  " + c.line()));
            out.println("Applied: " + plan.count(Action.CREATE) + " created, "
                    + (plan.count(Action.UPDATE) + plan.count(Action.REPLACE)) + " updated, "
                    + plan.count(Action.DELETE) + " deleted, " + plan.count(Action.UNCHANGED) + " unchanged.");
            return ExitCodes.OK;
        }

        private static Map<String, Object> call(String method, String path, Object body) {
            Map<String, Object> call = new LinkedHashMap<>();
            call.put("method", method);
            call.put("path", path);
            if (body != null) {
                call.put("body", body);
            }
            return call;
        }

        /** A change's line once made: "created EnvType production". */
        private static String done(Change change) {
            return change.line().replaceFirst("^\\S+ ", change.action().word + "d ");
        }

        /** Apply and sync: plan, then make the changes. */
        @Override
        public Integer call() {
            String organization = organization();
            Client client = client();
            return apply(client, organization, plan(client, organization));
        }

        @Override
        Main main() {
            return ((ConfigCommand) parent).main;
        }
    }

    /** Whether environments may be deleted, for the commands that delete. */
    static class DestroyOption {
        @Option(
                names = "--allow-destroy",
                description = "Also delete managed environments no document names (their resources are destroyed).")
        boolean allowDestroy;
    }

    @Command(
            name = "plan",
            mixinStandardHelpOptions = true,
            description =
                    "Show what `config apply` (or, with --sync, `config sync`) would create, update and delete; change nothing."
                            + " Exit code 0 when nothing would change, 2 when something would, 3 for bad input or a blocked change.")
    static class Plan extends Base {

        @Option(names = "--sync", description = "Plan a sync: include the deletes.")
        boolean sync;

        @Mixin
        DestroyOption destroy;

        @Override
        boolean sync() {
            return sync;
        }

        @Override
        boolean allowDestroy() {
            return destroy.allowDestroy;
        }

        @Override
        public Integer call() {
            String organization = organization();
            ConfigPlan plan = plan(client(), organization);
            print(plan, organization);
            if (plan.count(Action.BLOCKED) > 0) {
                return ExitCodes.BAD_INPUT;
            }
            return plan.changesSomething() ? ExitCodes.CANCELLED_OR_TIMED_OUT : ExitCodes.OK;
        }
    }

    @Command(
            name = "apply",
            mixinStandardHelpOptions = true,
            description =
                    "Create and update the objects the documents describe; delete nothing. A second apply changes nothing.")
    static class Apply extends Base {}

    @Command(
            name = "sync",
            mixinStandardHelpOptions = true,
            description =
                    "Apply, then delete the objects of the documents' kinds that carry this --managed-by and no document names."
                            + " Protected objects are never deleted; environments only with --allow-destroy.")
    static class Sync extends Base {

        @Mixin
        DestroyOption destroy;

        @Override
        boolean sync() {
            return true;
        }

        @Override
        boolean allowDestroy() {
            return destroy.allowDestroy;
        }
    }
}
