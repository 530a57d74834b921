package dev.polystack.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;

@Command(name = "destroy", mixinStandardHelpOptions = true, description = "Destroy every resource of an environment (the environment stays).")
class DestroyCommand extends Connection implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--env", description = "The environment, org/project/env (default: the context's).")
    String env;

    @Option(names = "--yes", description = "Confirm: without it nothing is destroyed.")
    boolean yes;

    @Option(names = "--wait", description = "Wait until it ends; the exit code says how it went.")
    boolean wait;

    @Option(names = "--timeout", defaultValue = "30m", description = "How long --wait waits (default: ${DEFAULT-VALUE}).")
    String timeout;

    @Override
    public Integer call() {
        Target target = target(env);
        if (!yes) {
            throw CliException.badInput("destroying every resource of " + target + " needs --yes");
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("mode", "destroy");
        return Lifecycle.start(client(), target, body, wait, Progress.duration(timeout), spec);
    }
}
