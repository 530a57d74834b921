package dev.polystack.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The stored sign-ins: named contexts, each a URL, a token and optionally a default environment, in
 * {@code ~/.config/polystack/config} (or {@code $XDG_CONFIG_HOME/polystack/config}), readable by the
 * owner only. {@code POLYSTACK_URL} and {@code POLYSTACK_TOKEN} override the current context, for CI.
 */
public final class Settings {

    /**
     * One named sign-in: an API token, or a person's access token with the session that renews it
     * ({@code polystack login --device}).
     */
    public record Context(String url, String token, String env, DeviceSignIn.Session session) {

        public Context(String url, String token, String env) {
            this(url, token, env, null);
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private final Path file;
    private final Map<String, Context> contexts = new TreeMap<>();
    private String current;

    private Settings(Path file) {
        this.file = file;
    }

    public static Path defaultFile(Map<String, String> environment) {
        String xdg = environment.get("XDG_CONFIG_HOME");
        Path base = xdg != null && !xdg.isBlank()
                ? Path.of(xdg)
                : Path.of(environment.getOrDefault("HOME", System.getProperty("user.home")), ".config");
        return base.resolve("polystack").resolve("config");
    }

    public static Settings load(Path file) {
        Settings settings = new Settings(file);
        if (!Files.exists(file)) {
            return settings;
        }
        try {
            ObjectNode root = (ObjectNode) JSON.readTree(file.toFile());
            settings.current = root.path("current").asText(null);
            root.path("contexts").fields().forEachRemaining(e -> {
                JsonNode oidc = e.getValue().path("oidc");
                DeviceSignIn.Session session = oidc.isObject()
                        ? new DeviceSignIn.Session(
                                oidc.path("token_endpoint").asText(),
                                oidc.path("client_id").asText(),
                                oidc.path("refresh_token").asText(),
                                Instant.parse(oidc.path("expires_at").asText()))
                        : null;
                settings.contexts.put(
                        e.getKey(),
                        new Context(
                                e.getValue().path("url").asText(null),
                                e.getValue().path("token").asText(null),
                                e.getValue().path("env").asText(null),
                                session));
            });
            return settings;
        } catch (IOException | ClassCastException | DateTimeParseException e) {
            throw CliException.badInput(
                    file + " is not a Polystack CLI configuration (" + e.getMessage() + "); fix or remove it");
        }
    }

    public Map<String, Context> contexts() {
        return Map.copyOf(contexts);
    }

    /** The name of the context a command uses: the one named, else the current one. */
    public Optional<String> nameOf(String named) {
        return Optional.ofNullable(named != null ? named : current);
    }

    public Optional<String> current() {
        return Optional.ofNullable(current);
    }

    public void put(String name, Context context) {
        contexts.put(name, context);
    }

    public void use(String name) {
        if (!contexts.containsKey(name)) {
            throw CliException.badInput("there is no context `" + name + "`; the contexts are " + contexts.keySet());
        }
        current = name;
    }

    /**
     * The context to use: the one named, else the current one, with the environment's URL and token
     * over it. Empty when there is neither a stored context nor a URL in the environment.
     */
    public Optional<Context> resolve(String named, Map<String, String> environment) {
        Context base = null;
        if (named != null) {
            base = contexts.get(named);
            if (base == null) {
                throw CliException.badInput(
                        "there is no context `" + named + "`; the contexts are " + contexts.keySet());
            }
        } else if (current != null) {
            base = contexts.get(current);
        }
        String url = nonBlank(environment.get("POLYSTACK_URL")).orElse(base == null ? null : base.url());
        String token = nonBlank(environment.get("POLYSTACK_TOKEN")).orElse(base == null ? null : base.token());
        if (url == null) {
            return Optional.empty();
        }
        // a session renews the stored token only; a token from the environment is used as it is
        boolean stored = base != null && token != null && token.equals(base.token());
        return Optional.of(new Context(url, token, base == null ? null : base.env(), stored ? base.session() : null));
    }

    /** Writes the file readable and writable by its owner only, replacing it in one step. */
    public void save() {
        ObjectNode root = JSON.createObjectNode();
        if (current != null) {
            root.put("current", current);
        }
        ObjectNode all = root.putObject("contexts");
        contexts.forEach((name, c) -> {
            ObjectNode node = all.putObject(name);
            node.put("url", c.url());
            if (c.token() != null) {
                node.put("token", c.token());
            }
            if (c.env() != null) {
                node.put("env", c.env());
            }
            if (c.session() != null) {
                ObjectNode oidc = node.putObject("oidc");
                oidc.put("token_endpoint", c.session().tokenEndpoint());
                oidc.put("client_id", c.session().clientId());
                oidc.put("refresh_token", c.session().refreshToken());
                oidc.put("expires_at", c.session().expiresAt().toString());
            }
        });
        try {
            Files.createDirectories(file.getParent());
            Path temporary = file.resolveSibling(file.getFileName() + ".new");
            Files.deleteIfExists(temporary);
            if (FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
                Files.createFile(
                        temporary, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            } else {
                Files.createFile(temporary);
            }
            Files.write(temporary, JSON.writeValueAsBytes(root));
            Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    private static Optional<String> nonBlank(String value) {
        return value == null || value.isBlank() ? Optional.empty() : Optional.of(value.strip());
    }
}
