package dev.polystack.cli;

import com.fasterxml.jackson.databind.JsonNode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.util.Map;
import java.util.concurrent.Callable;

@Command(
        name = "cancel",
        mixinStandardHelpOptions = true,
        description = "Cancel a deployment: queued resources do not start; running ones finish and the rest stop.")
class CancelCommand extends Connection implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", description = "The deployment's id.")
    String deployment;

    @Override
    public Integer call() {
        Target target = target();
        JsonNode cancelled = client().post(target.path() + "/deployments/" + deployment + "/cancel", Map.of());
        spec.commandLine()
                .getOut()
                .printf(
                        "Deployment %s: %s%s%n",
                        deployment,
                        cancelled.path("status").asText(),
                        cancelled.path("cancel_requested").asBoolean() ? " (cancel requested)" : "");
        return ExitCodes.OK;
    }
}
