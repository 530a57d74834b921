package dev.polystack.cli;

import java.util.regex.Pattern;

/** An environment named as {@code org/project/env}. */
public record Target(String org, String project, String env) {

    private static final Pattern SLUG = Pattern.compile("[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?");

    public static Target parse(String text) {
        if (text == null || text.isBlank()) {
            throw CliException.badInput(
                    "no environment: pass --env org/project/env (or store one with `polystack login --env`)");
        }
        String[] parts = text.strip().split("/", -1);
        if (parts.length != 3) {
            throw CliException.badInput("--env `" + text + "` is not org/project/env");
        }
        for (String part : parts) {
            if (!SLUG.matcher(part).matches()) {
                throw CliException.badInput(
                        "--env `" + text + "`: `" + part + "` is not an id (lowercase letters, digits and dashes)");
            }
        }
        return new Target(parts[0], parts[1], parts[2]);
    }

    /** The API path of the environment. */
    public String path() {
        return "/api/v1/orgs/" + org + "/projects/" + project + "/envs/" + env;
    }

    @Override
    public String toString() {
        return org + "/" + project + "/" + env;
    }
}
