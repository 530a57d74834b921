package dev.polystack.platform.identity;

import dev.polystack.platform.common.web.Slug;
import dev.polystack.platform.security.Role;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;

public record CreateServiceUserRequest(
        @Slug String id,
        @NotNull Role role,
        @Size(max = 1000) String description) {}
