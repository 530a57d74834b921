package dev.polystack.runner;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Finding and checking the CLI at start, with scripts that print what the real binaries print. */
class TofuBinaryTest {

    private static final String TERRAFORM_JSON = "{\"terraform_version\":\"1.11.4\",\"platform\":\"linux_amd64\","
            + "\"provider_selections\":{},\"terraform_outdated\":false}";
    private static final String TOFU_JSON =
            "{\"terraform_version\":\"1.8.5\",\"platform\":\"linux_amd64\",\"provider_selections\":{}}";

    @TempDir
    Path dir;

    /** A fake binary: {@code version -json} prints json, {@code version} prints text, both with a warning on stderr. */
    private Path binary(String folder, String name, String json, String text) throws Exception {
        Path bin = Files.createDirectories(dir.resolve(folder));
        Path script = bin.resolve(name);
        Files.writeString(script, """
                #!/bin/bash
                echo 'There are some problems with the CLI configuration:' >&2
                echo '│ Warning: Unable to open CLI configuration file' >&2
                if [ "$2" = "-json" ]; then echo '%s'; else echo '%s'; echo 'on linux_amd64'; fi
                """.formatted(json, text));
        script.toFile().setExecutable(true);
        return script;
    }

    @Test
    void aWarningOnStderrDoesNotHideTheVersionAndIsPassedOn() throws Exception {
        Path terraform = binary("bin", "terraform", TERRAFORM_JSON, "Terraform v1.11.4");
        List<String> warnings = new ArrayList<>();
        TofuBinary found = TofuBinary.find(terraform.toString(), "", warnings::add);
        assertThat(found.product()).isEqualTo("Terraform");
        assertThat(found.version()).isEqualTo("1.11.4");
        assertThat(found.describe()).isEqualTo("Terraform 1.11.4 at `" + terraform + "`");
        assertThat(warnings).contains("│ Warning: Unable to open CLI configuration file");
    }

    @Test
    void tofuOnThePathComesBeforeTerraform() throws Exception {
        Path terraform = binary("a", "terraform", TERRAFORM_JSON, "Terraform v1.11.4");
        Path tofu = binary("b", "tofu", TOFU_JSON, "OpenTofu v1.8.5");
        String path = terraform.getParent() + File.pathSeparator + tofu.getParent();
        TofuBinary found = TofuBinary.find(null, path, line -> {});
        assertThat(found.path()).isEqualTo(tofu.toString());
        assertThat(found.describe()).startsWith("OpenTofu 1.8.5");

        TofuBinary withoutTofu = TofuBinary.find(null, terraform.getParent().toString(), line -> {});
        assertThat(withoutTofu.path()).isEqualTo(terraform.toString());
        assertThat(withoutTofu.product()).isEqualTo("Terraform");
    }

    @Test
    void noBinaryAnOldOneOrAnotherProgramSayWhatToInstall() throws Exception {
        assertThatThrownBy(() -> TofuBinary.find(null, dir.toString(), line -> {}))
                .hasMessageContaining("neither `tofu` nor `terraform` is on the PATH")
                .hasMessageContaining("--tofu=");
        Path old = binary("old", "terraform", TERRAFORM_JSON.replace("1.11.4", "1.4.6"), "Terraform v1.4.6");
        assertThatThrownBy(() -> TofuBinary.find(old.toString(), "", line -> {}))
                .hasMessageContaining("Terraform 1.4.6")
                .hasMessageContaining("too old")
                .hasMessageContaining(">= 1.5");
        Path other = binary("other", "tofu", "not json", "something else");
        assertThatThrownBy(() -> TofuBinary.find(other.toString(), "", line -> {}))
                .hasMessageContaining("printed no version on stdout");
        assertThatThrownBy(() -> TofuBinary.find(dir.resolve("missing").toString(), "", line -> {}))
                .hasMessageContaining("cannot be run");
    }

    @Test
    void theRealBinaryOnThisMachineIsFoundAndNamed() {
        Optional<Path> real = Stream.of("tofu", "terraform")
                .map(TofuBinaryTest::onPath)
                .flatMap(Optional::stream)
                .findFirst();
        if (real.isEmpty()) {
            System.out.println(
                    "SKIPPED TofuBinaryTest.theRealBinaryOnThisMachineIsFoundAndNamed: neither tofu nor terraform on the PATH");
        }
        assumeTrue(real.isPresent(), "neither tofu nor terraform on the PATH");
        TofuBinary found = TofuBinary.find(null, System.getenv("PATH"), line -> {});
        assertThat(found.path()).isEqualTo(real.get().toString());
        assertThat(found.product())
                .isEqualTo(real.get().getFileName().toString().equals("tofu") ? "OpenTofu" : "Terraform");
        assertThat(found.version()).matches("\\d+\\.\\d+\\.\\d+.*");
    }

    private static Optional<Path> onPath(String name) {
        return Stream.of(System.getenv("PATH").split(File.pathSeparator))
                .map(d -> Path.of(d, name))
                .filter(Files::isExecutable)
                .findFirst();
    }
}
