package dev.polystack.platform.quota;

import com.fasterxml.jackson.annotation.JsonProperty;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.util.List;

/** An organization's quotas. */
public record QuotasView(List<Item> items) {

    /**
     * @param name  e.g. {@code projects}
     * @param scope what one limit counts in: organization, project, environment, manifest or user
     * @param hard  the limit
     * @param used  for a quota per project, environment, manifest or user: the most any one of them uses
     */
    @Schema(name = "QuotaItem")
    public record Item(
            String name,
            String scope,
            String description,
            int hard,
            long used,

            @JsonProperty("default") @Schema(description = "Whether the limit is the configured default")
            boolean isDefault) {}
}
