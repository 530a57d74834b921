package dev.polystack.platform.organization;

import dev.polystack.platform.common.web.Slug;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;

public record CreateOrganizationRequest(
        @Slug String id, @NotBlank @Size(max = 200) String name) {}
