package dev.polystack.platform.environment;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.polystack.platform.common.web.ManagedBy;
import dev.polystack.platform.common.web.Slug;
import dev.polystack.platform.envtype.CheckSchedule;
import jakarta.validation.Valid;

public record CreateEnvironmentRequest(
        @Slug String id,
        @Slug String envTypeId,
        @ManagedBy String managedBy,
        @JsonProperty("protected") Boolean protect,
        @Valid CheckSchedule checks) {}
