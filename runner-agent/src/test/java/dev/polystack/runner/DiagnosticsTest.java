package dev.polystack.runner;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Error diagnostics from what Terraform 1.11 really printed, as text and as -json messages. */
class DiagnosticsTest {

    private static List<String> recorded(String name) throws IOException {
        try (InputStream in = DiagnosticsTest.class.getResourceAsStream("/terraform-recorded/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        }
    }

    @Test
    void aSyntaxErrorOnStderrKeepsSummaryFileLineAndDetail() throws IOException {
        Diagnostics diagnostics = new Diagnostics();
        List<String> levels = new ArrayList<>();
        recorded("init-unclosed-block.stderr").forEach(line -> levels.add(diagnostics.stderr(line)));
        assertThat(diagnostics.errors())
                .containsExactly(new Diagnostics.Diagnostic(
                        "Unclosed configuration block",
                        "There is no closing brace for this block before the end of the file. This may be caused by incorrect brace"
                                + " nesting elsewhere in this file.",
                        "module/main.tf",
                        2));
        // the CLI configuration warning stays a warning; the error's lines are errors
        assertThat(levels.get(1)).isEqualTo("warn");
        assertThat(levels.get(levels.size() - 1)).isEqualTo("error");
    }

    @Test
    void colouredBoxedOutputReadsTheSame() throws IOException {
        Diagnostics diagnostics = new Diagnostics();
        recorded("init-unclosed-block-colour.stderr").forEach(diagnostics::stderr);
        assertThat(diagnostics.errors())
                .extracting(Diagnostics.Diagnostic::describe)
                .containsExactly(
                        "Unclosed configuration block: There is no closing brace for this block before the end of the file. This may be"
                                + " caused by incorrect brace nesting elsewhere in this file. (module/main.tf line 2)");
    }

    @Test
    void anUnreachableRegistryIsNamedInTheFirstParagraph() throws IOException {
        Diagnostics diagnostics = new Diagnostics();
        recorded("init-provider-unreachable.stderr").forEach(diagnostics::stderr);
        Diagnostics.Diagnostic error = diagnostics.errors().get(0);
        assertThat(error.summary()).isEqualTo("Failed to query available provider packages");
        assertThat(error.detail())
                .contains("hashicorp/null: could not connect to registry.terraform.io")
                .doesNotContain("terraform providers");
        assertThat(error.file()).isNull();
        assertThat(diagnostics.errors()).hasSize(1);
    }

    @Test
    void jsonDiagnosticsOnStdoutAreErrorsOnlyAtErrorLevel() throws IOException {
        Diagnostics diagnostics = new Diagnostics();
        for (String line : Fixtures.lines("apply-json-with-provisioner-error__apply.jsonl")) {
            diagnostics.stdout(line);
        }
        diagnostics.stdout(
                "{\"@level\":\"warn\",\"@message\":\"Warning: x\",\"type\":\"diagnostic\",\"diagnostic\":{\"severity\":\"warning\",\"summary\":\"x\"}}");
        assertThat(diagnostics.errors())
                .isNotEmpty()
                .allSatisfy(e -> assertThat(e.summary()).isNotBlank());
        diagnostics.stdout(
                "{\"@level\":\"error\",\"@message\":\"Error: Unsupported block type\",\"type\":\"diagnostic\",\"diagnostic\":"
                        + "{\"severity\":\"error\",\"summary\":\"Unsupported block type\",\"detail\":\"Blocks of type \\\"bogus\\\" are not expected here.\","
                        + "\"range\":{\"filename\":\"module/main.tf\",\"start\":{\"line\":3,\"column\":3}}}}");
        List<Diagnostics.Diagnostic> errors = diagnostics.errors();
        assertThat(errors.get(errors.size() - 1).describe())
                .isEqualTo(
                        "Unsupported block type: Blocks of type \"bogus\" are not expected here. (module/main.tf line 3)");
    }
}
