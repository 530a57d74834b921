package dev.polystack.cli;

import com.fasterxml.jackson.databind.JsonNode;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/** What the commands that deploy a manifest version share: their options and following the deployment. */
abstract class DeploymentStarter extends Connection {

    @Spec
    CommandSpec spec;

    @Mixin
    WaitOptions waiting;

    @Option(names = "--plan", description = "Plan only: every resource is planned, nothing is applied.")
    boolean plan;

    @Option(names = "--force", description = "Run every resource, even those whose inputs did not change.")
    boolean force;

    @Option(
            names = "--idempotency-key",
            description = "A retry with the same key returns the deployment made the first time.")
    String idempotencyKey;

    /** Deploys a stored manifest version and, with --wait, follows it to its end. */
    int deploy(Client client, Target target, int version) {
        PrintWriter out = spec.commandLine().getOut();
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("mode", plan ? "plan" : "deploy");
        body.put("manifest_version", version);
        if (force) {
            body.put("force", true);
        }
        Duration limit = waiting.timeout();
        JsonNode deployment = client.post(
                target.path() + "/deployments",
                body,
                idempotencyKey == null ? Map.of() : Map.of("Idempotency-Key", idempotencyKey));
        String id = deployment.path("id").asText();
        out.printf(
                "Manifest version %d of %s; deployment %s (%s) %s%n",
                version, target, id, body.get("mode"), deployment.path("status").asText());
        if (!waiting.wait) {
            return ExitCodes.OK;
        }
        JsonNode ended = Progress.await(client, target, id, limit, out);
        int code = Progress.report(ended, out, spec.commandLine().getErr());
        if (code == ExitCodes.OK && !plan) {
            OutputsCommand.print(client, target, ended, out);
        }
        return code;
    }
}
