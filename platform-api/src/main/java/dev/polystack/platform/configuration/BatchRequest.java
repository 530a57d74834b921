package dev.polystack.platform.configuration;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;

import java.util.List;

/** Configuration changes made together or not at all, in the order given. */
public record BatchRequest(
        @NotNull @Size(min = 1, max = 1000) List<@Valid @NotNull BatchChange> changes) {}
