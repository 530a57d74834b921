package dev.polystack.runner;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The OpenTofu or Terraform CLI the agent runs, found and checked at start: {@code tofu} on the PATH,
 * else {@code terraform}, unless one is configured. Its version comes from {@code version -json} on
 * stdout alone; what it prints on stderr (a missing CLI configuration, a deprecation, an update check)
 * is handed on as warnings and never mistaken for the answer.
 */
public record TofuBinary(String path, String product, String version) {

    /** OpenTofu from 1.6 (the first release), Terraform from 1.5 (the last one OpenTofu forked from). */
    static final Map<String, int[]> MINIMUM = Map.of("OpenTofu", new int[] {1, 6}, "Terraform", new int[] {1, 5});

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern TEXT_VERSION = Pattern.compile("^(OpenTofu|Terraform) v?(\\d+\\.\\d+\\S*)");
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    /** "Terraform 1.11.4 at /usr/bin/terraform". */
    public String describe() {
        return product + " " + version + " at `" + path + "`";
    }

    /**
     * Finds and checks the binary.
     *
     * @param configured the {@code tofu} setting, or null to look for {@code tofu} and then {@code terraform} on the PATH
     * @param searchPath the PATH to look in
     * @param warnings   receives every line the binary printed on stderr
     */
    public static TofuBinary find(String configured, String searchPath, Consumer<String> warnings) {
        String binary = configured;
        if (binary == null || binary.isBlank()) {
            binary = onPath("tofu", searchPath)
                    .or(() -> onPath("terraform", searchPath))
                    .map(Path::toString)
                    .orElseThrow(() -> new AgentConfig.ConfigException("neither `tofu` nor `terraform` is on the PATH ("
                            + searchPath
                            + "): install OpenTofu >= 1.6 or Terraform >= 1.5, or set --tofu=/path/to/binary"
                            + " (" + AgentConfig.envName("tofu") + ")"));
        }
        Run json = run(binary, List.of("version", "-json"));
        json.stderr().forEach(warnings);
        if (json.exitCode() != 0) {
            throw new AgentConfig.ConfigException("`" + binary + " version -json` failed with exit code "
                    + json.exitCode() + firstLines(json.stderr())
                    + "; install OpenTofu >= 1.6 or Terraform >= 1.5, or set --tofu=/path/to/binary");
        }
        String version = versionOf(json.stdout());
        if (version == null) {
            throw new AgentConfig.ConfigException("`" + binary + " version -json` printed no version on stdout (`"
                    + abbreviate(json.stdout())
                    + "`); is it OpenTofu or Terraform? Install OpenTofu >= 1.6 or Terraform >= 1.5,"
                    + " or set --tofu=/path/to/binary");
        }
        // version -json does not say whose binary it is; the text form's first line does ("OpenTofu v1.8.5")
        Run text = run(binary, List.of("version"));
        String product = productOf(text.stdout()).orElse("OpenTofu");
        TofuBinary found = new TofuBinary(binary, product, version);
        found.requireSupported();
        return found;
    }

    /** The version in {@code version -json}'s output, or null when it is not that JSON. */
    static String versionOf(String stdout) {
        try {
            JsonNode node = JSON.readTree(stdout);
            return node != null && node.path("terraform_version").isTextual()
                    ? node.path("terraform_version").asText()
                    : null;
        } catch (IOException e) {
            return null;
        }
    }

    /** "OpenTofu" or "Terraform", from the first line {@code version} prints. */
    static Optional<String> productOf(String stdout) {
        for (String line : stdout.split("\n")) {
            Matcher matcher = TEXT_VERSION.matcher(line.strip());
            if (matcher.find()) {
                return Optional.of(matcher.group(1));
            }
        }
        return Optional.empty();
    }

    void requireSupported() {
        int[] minimum = MINIMUM.get(product);
        Matcher numbers = Pattern.compile("^(\\d+)\\.(\\d+)").matcher(version);
        if (minimum == null || !numbers.find()) {
            return;
        }
        int major = Integer.parseInt(numbers.group(1));
        int minor = Integer.parseInt(numbers.group(2));
        if (major < minimum[0] || (major == minimum[0] && minor < minimum[1])) {
            throw new AgentConfig.ConfigException(
                    describe() + " is too old: the agent needs " + product + " >= " + minimum[0] + "." + minimum[1]);
        }
    }

    private record Run(int exitCode, String stdout, List<String> stderr) {}

    private static Run run(String binary, List<String> args) {
        List<String> command = new ArrayList<>();
        command.add(binary);
        command.addAll(args);
        try {
            Process process = new ProcessBuilder(command)
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .start();
            List<String> stderr = new ArrayList<>();
            Thread errors = new Thread(
                    () -> {
                        try {
                            new String(process.getErrorStream().readAllBytes())
                                    .lines()
                                    .filter(l -> !l.isBlank())
                                    .forEach(stderr::add);
                        } catch (IOException e) {
                            // the process ended
                        }
                    },
                    "tofu-version-stderr");
            errors.start();
            String stdout = new String(process.getInputStream().readAllBytes());
            if (!process.waitFor(TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AgentConfig.ConfigException(
                        "`" + String.join(" ", command) + "` did not end within " + TIMEOUT.toSeconds() + " s");
            }
            errors.join(TIMEOUT.toMillis());
            return new Run(process.exitValue(), stdout, stderr);
        } catch (IOException e) {
            throw new AgentConfig.ConfigException("the binary `" + binary + "` cannot be run (" + e.getMessage()
                    + "): install OpenTofu >= 1.6 or Terraform >= 1.5, or set --tofu=/path/to/binary ("
                    + AgentConfig.envName("tofu") + ")");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AgentConfig.ConfigException("interrupted");
        }
    }

    private static Optional<Path> onPath(String name, String searchPath) {
        if (searchPath == null) {
            return Optional.empty();
        }
        for (String dir : searchPath.split(File.pathSeparator)) {
            if (dir.isEmpty()) {
                continue;
            }
            Path candidate = Path.of(dir, name);
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    private static String firstLines(List<String> lines) {
        return lines.isEmpty() ? "" : ": " + abbreviate(String.join(" ", lines.subList(0, Math.min(3, lines.size()))));
    }

    private static String abbreviate(String text) {
        String line = text.strip().replaceAll("\\s+", " ");
        return line.length() > 200 ? line.substring(0, 200) + "…" : line;
    }
}
