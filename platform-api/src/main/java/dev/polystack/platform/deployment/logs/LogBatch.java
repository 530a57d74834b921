package dev.polystack.platform.deployment.logs;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.time.Instant;
import java.util.List;

/** A numbered batch of log lines; sending a batch number again is harmless. */
public record LogBatch(
        @NotNull @Min(0) Integer batch,
        @NotNull @Size(max = 5000) List<@Valid @NotNull Line> lines) {

    /**
     * @param level   info, warn, error (from the -json stream), or text for a line that was not JSON
     * @param type    the stream message type, e.g. apply_complete
     */
    @Schema(name = "LogLine")
    public record Line(
            Instant time,
            @Size(max = 20) String level,
            @Size(max = 64) String type,
            @NotNull @Size(max = 65536) String message) {}
}
