package dev.polystack.platform.module;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.util.List;

/**
 * What a module version's code declares, read when it was saved: its variables and outputs. Modules whose
 * code the control plane cannot read (git and registry sources) say so instead.
 */
@Schema(name = "ModuleInterface")
public record ModuleInterfaceView(
        @Schema(description = "Whether the code was read and checked when the version was saved")
        boolean checked,

        @Schema(description = "Why it was not checked") String note,
        List<Variable> variables,
        List<Output> outputs) {

    /** An input variable; required when it has no default. */
    @Schema(name = "ModuleVariable")
    public record Variable(
            String name,

            @Schema(description = "The type expression, e.g. string or map(number)")
            String type,

            boolean required,
            boolean sensitive,
            String description) {}

    /** An output the module produces. */
    @Schema(name = "ModuleOutput")
    public record Output(String name, boolean sensitive, String description) {}

    static ModuleInterfaceView notChecked(String note) {
        return new ModuleInterfaceView(false, note, List.of(), List.of());
    }
}
