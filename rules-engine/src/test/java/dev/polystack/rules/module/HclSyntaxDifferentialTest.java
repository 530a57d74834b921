package dev.polystack.rules.module;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The syntax reader against the real parser: seeded mutations of a module (a character removed, a bracket,
 * quote or newline inserted, a line dropped or doubled) go to both {@code terraform fmt -} (or {@code tofu fmt -})
 * and {@link HclSyntax}. What the real binary accepts must be accepted here — refusing a valid module
 * would stop a platform engineer for nothing. What it refuses is mostly refused here too (the reader
 * scans expressions rather than parsing them); the share is printed. {@code -Dhcl.cases=N} runs more.
 */
// not in the fast unit lane (-Punit): it runs the real tofu or terraform binary over every case
@Tag("slow")
class HclSyntaxDifferentialTest {

    private static final String INSERTS = "{}[]()\"=\n#$%<>.,:?!";

    @Test
    void whatTheRealParserAcceptsIsAcceptedAndMostOfWhatItRefusesIsRefused() throws Exception {
        Optional<Path> binary = Stream.of("tofu", "terraform")
                .flatMap(name -> onPath(name).stream())
                .findFirst();
        if (binary.isEmpty()) {
            System.out.println("SKIPPED HclSyntaxDifferentialTest: neither tofu nor terraform on the PATH");
        }
        assumeTrue(binary.isPresent(), "neither tofu nor terraform on the PATH");
        int cases = Integer.getInteger("hcl.cases", 150);
        long seed = Long.getLong("hcl.seed", 20261130L);
        Random random = new Random(seed);
        List<String> corpus = List.of(ModuleInterfaceTest.RICH, """
                variable "name" { type = string }
                variable "upstream" {
                  type    = any
                  default = null
                }
                resource "terraform_data" "this" {
                  input = { name = var.name, upstream = var.upstream }
                  lifecycle {
                    precondition {
                      condition     = var.name != ""
                      error_message = "name is empty"
                    }
                  }
                  provisioner "local-exec" {
                    command = "sleep ${var.apply_ms / 1000}"
                  }
                }
                output "name" { value = var.name }
                """);
        assertThat(realAccepts(binary.get(), corpus.get(0)))
                .as("the corpus itself is valid")
                .isTrue();
        int bothAccept = 0;
        int bothRefuse = 0;
        int onlyRealRefuses = 0;
        List<String> wronglyRefused = new ArrayList<>();
        for (int i = 0; i < cases; i++) {
            String original = corpus.get(random.nextInt(corpus.size()));
            String mutated = mutate(original, random);
            boolean real = realAccepts(binary.get(), mutated);
            boolean ours;
            String why = "";
            try {
                HclSyntax.parse(mutated);
                ours = true;
            } catch (HclSyntax.SyntaxError e) {
                ours = false;
                why = "line " + e.line() + ": " + e.getMessage();
            }
            if (real && ours) {
                bothAccept++;
            } else if (!real && !ours) {
                bothRefuse++;
            } else if (!real) {
                onlyRealRefuses++;
            } else {
                wronglyRefused.add(why + "\n" + mutated);
            }
        }
        System.out.printf(
                "HCL syntax against %s fmt, %d mutations (seed %d): both accept %d, both refuse %d,"
                        + " only %s refuses %d (caught %.0f%% of its refusals), valid but refused here %d%n",
                binary.get().getFileName(),
                cases,
                seed,
                bothAccept,
                bothRefuse,
                binary.get().getFileName(),
                onlyRealRefuses,
                100.0 * bothRefuse / Math.max(1, bothRefuse + onlyRealRefuses),
                wronglyRefused.size());
        assertThat(wronglyRefused).as("valid HCL refused by HclSyntax").isEmpty();
        assertThat(bothRefuse).as("most syntax errors are caught").isGreaterThan(onlyRealRefuses);
    }

    private static String mutate(String text, Random random) {
        int at = random.nextInt(text.length());
        return switch (random.nextInt(4)) {
            case 0 -> text.substring(0, at) + text.substring(at + 1);
            case 1 -> text.substring(0, at) + INSERTS.charAt(random.nextInt(INSERTS.length())) + text.substring(at);
            case 2 -> {
                List<String> lines = new ArrayList<>(text.lines().toList());
                lines.remove(random.nextInt(lines.size()));
                yield String.join("\n", lines) + "\n";
            }
            default -> {
                List<String> lines = new ArrayList<>(text.lines().toList());
                int line = random.nextInt(lines.size());
                lines.add(line, lines.get(line));
                yield String.join("\n", lines) + "\n";
            }
        };
    }

    private static boolean realAccepts(Path binary, String text) throws Exception {
        Process process = new ProcessBuilder(binary.toString(), "fmt", "-no-color", "-")
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        process.getOutputStream().write(text.getBytes(StandardCharsets.UTF_8));
        process.getOutputStream().close();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError(binary + " fmt did not end");
        }
        return process.exitValue() == 0;
    }

    private static Optional<Path> onPath(String name) {
        return Stream.of(System.getenv("PATH").split(File.pathSeparator))
                .map(d -> Path.of(d, name))
                .filter(Files::isExecutable)
                .findFirst();
    }
}
