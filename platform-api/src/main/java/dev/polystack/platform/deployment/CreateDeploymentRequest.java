package dev.polystack.platform.deployment;

import dev.polystack.platform.deployment.model.DeploymentMode;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.util.UUID;

/**
 * @param manifestVersion plan, deploy, dry-run: the manifest version to use; default the latest
 * @param rollbackTo      rollback: the earlier deployment whose graph (module versions and inputs) to deploy again
 * @param force           run every resource, even those whose inputs did not change
 * @param allowDestroy    rollback: destroy live resources the target deployment did not have (refused with 409 otherwise)
 */
public record CreateDeploymentRequest(
        @NotNull @Schema(enumeration = {"dry-run", "plan", "deploy", "destroy", "rollback"})
        DeploymentMode mode,

        @Min(1) Integer manifestVersion,
        UUID rollbackTo,
        Boolean force,

        @Schema(
                description =
                        "rollback: destroy live resources the target deployment did not have; without it such a rollback"
                                + " is refused with 409 naming them")
        Boolean allowDestroy) {}
