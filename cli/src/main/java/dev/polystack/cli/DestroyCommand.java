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
        name = "destroy",
        mixinStandardHelpOptions = true,
        description = "Destroy every resource of an environment (the environment stays).")
class DestroyCommand extends Connection implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--yes", description = "Confirm: without it nothing is destroyed.")
    boolean yes;

    @Mixin
    WaitOptions waiting;

    @Override
    public Integer call() {
        Target target = target();
        if (!yes) {
            throw CliException.badInput("destroying every resource of " + target + " needs --yes");
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("mode", "destroy");
        return Lifecycle.start(client(), target, body, waiting.wait, waiting.timeout(), spec);
    }
}
