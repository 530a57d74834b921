package dev.polystack.tests;

import org.junit.jupiter.api.Assumptions;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/** The README's marked bash blocks, as a reader pastes them, and the real OpenTofu or Terraform on the PATH. */
final class Readme {

    private Readme() {}

    /** The bash block between {@code <!-- marker -->} and {@code <!-- /marker -->}. */
    static String block(String marker) throws IOException {
        String readme = Files.readString(PlatformProcess.repository().resolve("README.md"));
        Matcher block = Pattern.compile(
                        "<!-- " + Pattern.quote(marker) + " -->\\s*```bash\\n(.*?)```\\s*<!-- /" + Pattern.quote(marker)
                                + " -->",
                        Pattern.DOTALL)
                .matcher(readme);
        if (!block.find()) {
            throw new AssertionError("README.md has no `" + marker + "` block");
        }
        return block.group(1);
    }

    /** Starts {@code script} in bash in {@code dir}, with its output in {@code log}. */
    static Process bash(String script, Path dir, Map<String, String> environment, Path log) throws IOException {
        Path file = Files.createTempFile(dir, "readme-", ".sh");
        Files.writeString(file, script);
        ProcessBuilder bash = new ProcessBuilder("bash", file.toString())
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        bash.environment().putAll(environment);
        return bash.start();
    }

    /** {@code tofu} on the PATH, else {@code terraform}, as the agent looks for them. */
    static Optional<Path> realBinary() {
        String path = System.getenv("PATH");
        return Stream.of("tofu", "terraform")
                .flatMap(name -> path == null
                        ? Stream.empty()
                        : Stream.of(path.split(File.pathSeparator)).map(dir -> Path.of(dir, name)))
                .filter(Files::isExecutable)
                .findFirst();
    }

    /** The real binary; without one the calling test is skipped, saying so on the console (CI logs show it). */
    static Path realBinaryOrSkip(String test) {
        Optional<Path> binary = realBinary();
        if (binary.isEmpty()) {
            System.out.println("SKIPPED " + test + ": neither tofu nor terraform on the PATH");
        }
        Assumptions.assumeTrue(
                binary.isPresent(), "neither tofu nor terraform on the PATH; install one to run " + test);
        return binary.get();
    }

    /**
     * A CLI configuration whose provider mirror refuses every connection, so that a provider download fails the
     * same way on every machine; the agent takes it as {@code --cli-config=}.
     */
    static Path offlineCliConfig(Path dir) throws IOException {
        Path config = Files.createDirectories(dir).resolve("mirror.tfrc");
        Files.writeString(
                config, "provider_installation {\n  network_mirror {\n    url = \"https://127.0.0.1:9/\"\n  }\n}\n");
        return config;
    }
}
