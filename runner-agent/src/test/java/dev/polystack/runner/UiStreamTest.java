package dev.polystack.runner;

import dev.polystack.runner.protocol.LogBatch;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Objects;

import static org.assertj.core.api.Assertions.assertThat;

class UiStreamTest {

    @Test
    void readsTheLevelTypeAndMessageOfEveryLineOfARecordedApply() {
        List<LogBatch.Line> lines = Fixtures.lines("apply_create.jsonl").stream()
                .map(UiStream::parse)
                .toList();
        assertThat(lines)
                .extracting(LogBatch.Line::type)
                .containsExactly(
                        "version",
                        "planned_change",
                        "change_summary",
                        "apply_start",
                        "apply_complete",
                        "change_summary",
                        "outputs");
        assertThat(lines).extracting(LogBatch.Line::level).containsOnly("info");
        assertThat(lines.get(5).message()).isEqualTo("Apply complete! Resources: 1 added, 0 changed, 0 destroyed.");
    }

    @Test
    void errorDiagnosticsKeepTheirSummaryDetailAndPlace() {
        List<LogBatch.Line> lines = Fixtures.lines("apply-json-with-provisioner-error__apply.jsonl").stream()
                .map(UiStream::parse)
                .filter(Objects::nonNull)
                .toList();
        LogBatch.Line diagnostic = lines.stream()
                .filter(l -> "diagnostic".equals(l.type()))
                .findFirst()
                .orElseThrow();
        assertThat(diagnostic.level()).isEqualTo("error");
        assertThat(diagnostic.message())
                .startsWith("Error: local-exec provisioner error")
                .contains("line ");
        assertThat(lines).anySatisfy(l -> assertThat(l.type()).isEqualTo("apply_errored"));
    }

    @Test
    void aLineThatIsNotJsonIsKeptAsTextAndBlankLinesAreSkipped() {
        assertThat(UiStream.parse("Initializing the backend...").level()).isEqualTo("text");
        assertThat(UiStream.parse("{not json").message()).isEqualTo("{not json");
        assertThat(UiStream.parse("   ")).isNull();
        assertThat(Fixtures.lines("apply-json-with-outputs__plan.jsonl").stream()
                        .map(UiStream::parse)
                        .filter(Objects::isNull))
                .isNotEmpty();
    }

    @Test
    void recordedTerraformStreamsReadTheSame() {
        List<LogBatch.Line> lines = Fixtures.lines("apply-json-with-outputs__apply.jsonl").stream()
                .map(UiStream::parse)
                .filter(Objects::nonNull)
                .toList();
        assertThat(lines.get(0).type()).isEqualTo("version");
        assertThat(lines).anySatisfy(l -> assertThat(l.message()).startsWith("Outputs: "));
    }
}
