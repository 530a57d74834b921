package dev.polystack.cli;

import com.fasterxml.jackson.databind.JsonNode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.Callable;

@Command(
        name = "score",
        mixinStandardHelpOptions = true,
        description = "Deploy Score workload files (score.dev/v1b1).",
        subcommands = ScoreCommand.Deploy.class)
class ScoreCommand {

    @ParentCommand
    Main main;

    @Command(
            name = "deploy",
            mixinStandardHelpOptions = true,
            description =
                    "Convert Score files into the environment's next manifest (each workload with its resources; resources with the same"
                            + " type, class and id shared) and deploy it. Exit codes as for `polystack deploy`.")
    static class Deploy extends DeploymentStarter implements Callable<Integer> {

        @Option(
                names = {"-f", "--file"},
                required = true,
                description = "A Score file; repeat for several workloads.")
        List<String> files;

        @Option(
                names = "--workload-type",
                description = "The resource type each workload becomes (default: score-workload).")
        String workloadType;

        @Override
        public Integer call() {
            Target target = target();
            StringBuilder documents = new StringBuilder();
            for (String name : files) {
                if (documents.length() > 0) {
                    documents.append("\n---\n");
                }
                documents.append(DeployCommand.Manifest.read(name).text());
            }
            Client client = client();
            String path = target.path() + "/manifest/score"
                    + (workloadType == null
                            ? ""
                            : "?workload_type=" + URLEncoder.encode(workloadType, StandardCharsets.UTF_8));
            JsonNode stored = client.post(path, "application/yaml", documents.toString());
            return deploy(client, target, stored.path("version").asInt());
        }
    }
}
