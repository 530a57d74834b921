package dev.polystack.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;

@Command(name = "rollback", mixinStandardHelpOptions = true,
        description = "Deploy an earlier deployment's graph (module versions and inputs) again. One that would destroy live"
                + " resources the earlier deployment did not have is refused unless --allow-destroy.")
class RollbackCommand extends Connection implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--to", required = true, description = "The earlier deployment's id.")
    String to;

    @Option(names = "--env", description = "The environment, org/project/env (default: the context's).")
    String env;

    @Option(names = "--allow-destroy", description = "Destroy live resources the earlier deployment did not have.")
    boolean allowDestroy;

    @Option(names = "--wait", description = "Wait until it ends; the exit code says how it went.")
    boolean wait;

    @Option(names = "--timeout", defaultValue = "30m", description = "How long --wait waits (default: ${DEFAULT-VALUE}).")
    String timeout;

    @Override
    public Integer call() {
        Target target = target(env);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("mode", "rollback");
        body.put("rollback_to", to);
        if (allowDestroy) {
            body.put("allow_destroy", true);
        }
        return Lifecycle.start(client(), target, body, wait, Progress.duration(timeout), spec);
    }
}
