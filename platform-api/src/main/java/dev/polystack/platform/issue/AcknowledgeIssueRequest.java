package dev.polystack.platform.issue;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;

/** @param comment why the issue is left as it is for now, or what is being done about it */
public record AcknowledgeIssueRequest(
        @NotBlank @Size(max = 2000) String comment) {}
