package dev.polystack.cli;

import com.fasterxml.jackson.databind.JsonNode;
import picocli.CommandLine.Model.CommandSpec;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.Map;

/** Starting a deployment of the environment and, when asked, waiting for it. */
final class Lifecycle {

    private Lifecycle() {}

    static int start(
            Client client, Target target, Map<String, Object> body, boolean wait, Duration timeout, CommandSpec spec) {
        PrintWriter out = spec.commandLine().getOut();
        JsonNode deployment = client.post(target.path() + "/deployments", body);
        String id = deployment.path("id").asText();
        out.printf(
                "Deployment %s (%s) of %s: %s%n",
                id, body.get("mode"), target, deployment.path("status").asText());
        if (!wait) {
            return ExitCodes.OK;
        }
        return Progress.report(
                Progress.await(client, target, id, timeout, out),
                out,
                spec.commandLine().getErr());
    }
}
