package dev.polystack.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;

@Command(
        name = "rollback",
        mixinStandardHelpOptions = true,
        description =
                "Deploy an earlier deployment's graph (module versions and inputs) again. One that would destroy live"
                        + " resources the earlier deployment did not have is refused unless --allow-destroy.")
class RollbackCommand extends Connection implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--to", required = true, description = "The earlier deployment's id.")
    String to;

    @Option(names = "--allow-destroy", description = "Destroy live resources the earlier deployment did not have.")
    boolean allowDestroy;

    @Mixin
    WaitOptions waiting;

    @Override
    public Integer call() {
        Target target = target();
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("mode", "rollback");
        body.put("rollback_to", to);
        if (allowDestroy) {
            body.put("allow_destroy", true);
        }
        return Lifecycle.start(client(), target, body, waiting.wait, waiting.timeout(), spec);
    }
}
