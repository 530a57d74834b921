package dev.polystack.platform.envtype;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.polystack.platform.common.web.ManagedBy;
import dev.polystack.platform.common.web.Slug;
import dev.polystack.platform.resourcetype.ReconcilePolicy;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.util.Map;

public record UpdateEnvTypeRequest(
        @Size(max = 1000) String description,
        @ManagedBy String managedBy,
        @JsonProperty("protected") Boolean protect,
        Long version,
        @Valid CheckSchedule checks,

        @Schema(
                description =
                        "What happens to drift, by resource type; absent leaves it as it is, {} removes the overrides")
        Map<@Slug String, @NotNull ReconcilePolicy> reconcile,

        @Valid @Schema(description = "Who approves deployments; absent leaves it as it is, {} removes it")
        ApprovalPolicy approval) {}
