package dev.polystack.platform.fuzz;

import com.fasterxml.jackson.databind.JsonNode;
import dev.polystack.platform.testing.PostgresResource;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;

import static dev.polystack.platform.fuzz.Limits.BODY_LIMIT;
import static dev.polystack.platform.fuzz.Limits.STATE_LIMIT;

final class BodyCases {

    /** Fills the path of an operation, mostly with the JSON organization's real objects. */
    static String path(Operation op, Gen g, World w, double odd) {
        StringBuilder out = new StringBuilder();
        java.util.regex.Matcher m =
                java.util.regex.Pattern.compile("\\{([^}]+)}").matcher(op.path());
        while (m.find()) {
            String value = g.chance(odd) ? g.pathSegment() : Text.percentEncode(w.realParam(m.group(1), op.path(), g));
            m.appendReplacement(out, java.util.regex.Matcher.quoteReplacement(value));
        }
        m.appendTail(out);
        return out.toString();
    }

    static Req authorized(Req request, Operation op, Gen g, World w) {
        double anonymous = g.r.nextDouble();
        if (anonymous < 0.05) {
            return request;
        }
        if (op.path().startsWith("/api/runner/")) {
            return request.bearer(w.runnerJwt);
        }
        if (op.path().startsWith("/api/state/")) {
            return request.header(
                    "Authorization",
                    "Basic "
                            + Base64.getEncoder()
                                    .encodeToString((g.slug() + ":" + g.slug()).getBytes(StandardCharsets.UTF_8)));
        }
        return request.bearer(PostgresResource.ADMIN_TOKEN);
    }

    /** A body that follows the operation's schema, with values that could well be accepted. */
    static Object fromSchema(JsonNode schema, String name, Gen g, World w, int depth) {
        schema = w.resolve(schema);
        if (schema == null || schema.isMissingNode()) {
            return g.value(2);
        }
        for (String combinator : List.of("oneOf", "anyOf", "allOf")) {
            if (schema.has(combinator) && schema.get(combinator).size() > 0) {
                return fromSchema(
                        schema.get(combinator).get(g.pick(schema.get(combinator).size())), name, g, w, depth);
            }
        }
        if (schema.has("enum")) {
            return schema.get("enum").get(g.pick(schema.get("enum").size())).asText();
        }
        String known = known(name, g, w);
        if (known != null) {
            return known;
        }
        String type = schema.path("type").isArray()
                ? schema.path("type").path(0).asText()
                : schema.path("type").asText("");
        switch (type) {
            case "object" -> {
                Obj obj = new Obj();
                List<String> required = new ArrayList<>();
                schema.path("required").forEach(r -> required.add(r.asText()));
                schema.path("properties").fields().forEachRemaining(p -> {
                    if ((required.contains(p.getKey()) || g.chance(0.5))
                            && !p.getKey().equals("version")) {
                        obj.put(p.getKey(), fromSchema(p.getValue(), p.getKey(), g, w, depth + 1));
                    }
                });
                JsonNode additional = schema.path("additionalProperties");
                if (additional.isObject() && depth < 4) {
                    for (int i = 0, n = g.between(0, 2); i < n; i++) {
                        String key = g.slug();
                        obj.put(key, fromSchema(additional, key, g, w, depth + 1));
                    }
                }
                return obj;
            }
            case "array" -> {
                List<Object> list = new ArrayList<>();
                for (int i = 0, n = depth < 4 ? g.between(0, 3) : 0; i < n; i++) {
                    list.add(fromSchema(schema.path("items"), name, g, w, depth + 1));
                }
                return list;
            }
            case "integer" -> {
                int min = schema.path("minimum").asInt(0);
                int max = schema.path("maximum").asInt(min + 10);
                return new Raw(Integer.toString(g.between(min, Math.max(min, Math.min(max, min + 10)))));
            }
            case "number" -> {
                return new Raw(Integer.toString(g.between(0, 10)));
            }
            case "boolean" -> {
                return g.chance(0.5);
            }
            case "string" -> {
                if ("uuid".equals(schema.path("format").asText())
                        || schema.path("pattern").asText().contains("[a-f0-9]{8}")) {
                    return UUID.randomUUID().toString();
                }
                if ("date-time".equals(schema.path("format").asText())) {
                    return java.time.Instant.now().toString();
                }
                return g.slug();
            }
            default -> {
                return depth < 3 ? g.value(2) : g.slug();
            }
        }
    }

    /** Values for fields whose valid values a pattern cannot tell. */
    static String known(String name, Gen g, World w) {
        return switch (name) {
            case "public_key" -> g.chance(0.8) ? w.publicKey : null;
            case "source" -> g.oneOf("hashicorp/null", "hashicorp/aws", "registry.opentofu.org/hashicorp/null");
            case "module_source" -> "inline";
            case "module_source_code" -> "output \"x\" { value = 1 }\n";
            case "role" -> g.oneOf("viewer", "developer", "platform-engineer", "owner");
            case "env_type_id" -> "production";
            case "resource_type" -> "thing";
            case "module_id" -> "thing-basic";
            case "runner_id" -> "r1";
            case "provider_type" -> "null";
            case "status" -> g.oneOf("succeeded", "failed", "cancelled");
            case "mode" -> g.oneOf("dry-run", "plan", "deploy", "destroy", "rollback");
            default -> null;
        };
    }

    /** Damage to a tree: wrong types, missing and extra fields, nulls, extreme numbers and strings, deep nesting. */
    static Object mutate(Object body, Gen g) {
        List<Obj> maps = new ArrayList<>();
        ManifestCases.collect(body, maps);
        if (maps.isEmpty()) {
            return g.value(3);
        }
        Obj target = g.oneOf(maps);
        String key = target.isEmpty() || g.chance(0.2)
                ? g.oneOf("id", "name", "version", g.slug(), g.string())
                : target.get(g.pick(target.size())).getKey();
        Object value = switch (g.pick(11)) {
            case 0 -> null;
            case 1 -> g.number();
            case 2 -> g.oneOf(Boolean.TRUE, Boolean.FALSE);
            case 3 -> g.string();
            case 4 -> g.oneOf("x", "é", "${").repeat(g.between(1_000, 200_000));
            case 5 -> g.nested(g.between(10, 5_000));
            case 6 -> g.value(4);
            case 7 -> new ArrayList<>(Arrays.asList(g.value(1), g.value(1)));
            case 8 -> Obj.of(g.slug(), g.value(2));
            case 9 ->
                new Raw(g.oneOf(
                        "NaN",
                        "Infinity",
                        "-Infinity",
                        "undefined",
                        "0x10",
                        "01",
                        ".5",
                        "1.",
                        "+1",
                        "1e",
                        "--1",
                        "'x'",
                        "x"));
            default -> g.number();
        };
        switch (g.pick(4)) {
            case 0 -> target.removeIf(e -> e.getKey().equals(key)); // missing
            case 1 -> target.put(key, value); // extra or duplicate
            default -> {
                target.removeIf(e -> e.getKey().equals(key));
                target.put(key, value); // replaced
            }
        }
        return body;
    }

    /** Byte-level damage to a JSON text. */
    static byte[] damage(String json, Gen g) {
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        return switch (g.pick(8)) {
            case 0 -> Arrays.copyOf(bytes, bytes.length == 0 ? 0 : g.pick(bytes.length)); // truncated
            case 1 ->
                (json + g.oneOf(" x", "}", "]", ",", "{}", " {\"a\":1}", "\u0000", "\n\n/* */", "garbage"))
                        .getBytes(StandardCharsets.UTF_8); // trailing garbage
            case 2 -> { // invalid UTF-8
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                int at = json.indexOf('"') < 0 ? 0 : json.indexOf('"') + 1;
                byte[] prefix = json.substring(0, at).getBytes(StandardCharsets.UTF_8);
                out.writeBytes(prefix);
                out.writeBytes(g.oneOf(
                        new byte[] {(byte) 0xFF},
                        new byte[] {(byte) 0xC3, (byte) 0x28},
                        new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80},
                        new byte[] {(byte) 0xF8, (byte) 0x88, (byte) 0x80, (byte) 0x80, (byte) 0x80},
                        new byte[] {(byte) 0xC0, (byte) 0xAF},
                        new byte[] {(byte) 0x80}));
                out.writeBytes(json.substring(at).getBytes(StandardCharsets.UTF_8));
                yield out.toByteArray();
            }
            case 3 -> json.replaceFirst("\"", "'").getBytes(StandardCharsets.UTF_8); // single quote
            case 4 -> ("\uFEFF" + json).getBytes(StandardCharsets.UTF_8); // BOM
            case 5 -> json.replace(":", ": /* c */").getBytes(StandardCharsets.UTF_8); // comments
            case 6 -> json.getBytes(StandardCharsets.UTF_16);
            default -> {
                byte[] copy = bytes.clone();
                for (int i = 0, n = g.between(1, 5); i < n && copy.length > 0; i++) {
                    copy[g.pick(copy.length)] = (byte) g.pick(256);
                }
                yield copy;
            }
        };
    }

    static Req forOperation(Operation op, Gen g, World w) {
        Req request = new Req().method(op.method()).target(path(op, g, w, 0.08));
        authorized(request, op, g, w);
        if (op.id().equals("claimJob")) {
            request.target(request.target + "?wait=" + ParamCases.shortDuration(g));
        }
        Object tree = op.schema() != null ? fromSchema(op.schema(), "", g, w, 0) : g.value(3);
        int damage = g.pick(10);
        String text;
        if (damage == 0) {
            text = Text.json(tree); // as the schema says
        } else if (damage <= 6) {
            for (int i = 0, n = g.between(1, 3); i < n; i++) {
                tree = mutate(tree, g);
            }
            text = Text.json(tree);
        } else if (damage == 7) {
            StringBuilder out = new StringBuilder();
            Text.json(g.value(g.between(0, 5)), out, g, true); // anything at all
            text = out.toString();
        } else {
            text = null;
        }
        byte[] body = text != null ? text.getBytes(StandardCharsets.UTF_8) : damage(Text.json(tree), g);
        if (body.length > BODY_LIMIT) {
            request.expectStatus = 413;
        }
        request.header(
                "Content-Type",
                g.chance(0.9)
                        ? "application/json"
                        : g.oneOf(
                                "application/json; charset=utf-8",
                                "application/json; charset=utf-16",
                                "application/JSON",
                                "application/json;",
                                "application/merge-patch+json",
                                "text/json",
                                "application/problem+json"));
        if (g.chance(0.5)) {
            request.header("Accept", "application/json");
        }
        return request.body(body).note(op.id());
    }

    static Req random(Gen g, World w) {
        return forOperation(g.oneOf(w.withBody()), g, w);
    }

    static List<Function<Gen, Req>> specials(World w) {
        List<Function<Gen, Req>> specials = new ArrayList<>();
        for (Operation op : w.withBody()) {
            if (op.path().startsWith("/api/state/") && op.method().equals("POST")) {
                // OpenTofu state has its own limit, 32 MiB by default
                byte[] state = ("{\"version\":4,\"serial\":1,\"lineage\":\"l\",\"outputs\":{\"x\":\""
                                + "x".repeat(STATE_LIMIT) + "\"}}")
                        .getBytes(StandardCharsets.UTF_8);
                for (boolean chunked : List.of(false, true)) {
                    specials.add(g -> {
                        Req request = authorized(new Req().method("POST").target(path(op, g, w, 0)), op, g, w)
                                .header("Content-Type", "application/json")
                                .body(state);
                        request.chunked = chunked;
                        request.expectStatus = 413;
                        return request.note(op.id() + " over 32 MiB" + (chunked ? ", chunked" : ""));
                    });
                }
            }
            if (op.path().startsWith("/api/state/") || op.mediaTypes().isEmpty()) {
                continue; // an operation without a body never reads one
            }
            String credential = op.path().startsWith("/api/runner/") ? w.runnerJwt : PostgresResource.ADMIN_TOKEN;
            // just over the 1 MiB limit: 413, before anything is read
            specials.add(g -> {
                Req request = new Req()
                        .method(op.method())
                        .target(path(op, g, w, 0))
                        .bearer(credential)
                        .header("Content-Type", "application/json")
                        .body("{\"name\":\"" + "x".repeat(BODY_LIMIT) + "\"}");
                request.expectStatus = 413;
                return request.note(op.id() + " over 1 MiB");
            });
            // the same without a Content-Length (chunked)
            specials.add(g -> {
                Req request = new Req()
                        .method(op.method())
                        .target(path(op, g, w, 0))
                        .bearer(credential)
                        .header("Content-Type", "application/json")
                        .body("{\"name\":\"" + "x".repeat(BODY_LIMIT) + "\"}");
                request.chunked = true;
                request.expectStatus = 413;
                return request.note(op.id() + " over 1 MiB, chunked");
            });
            for (String text : List.of(
                    "",
                    "{",
                    "[",
                    "null",
                    "[]",
                    "\"\"",
                    "0",
                    "{\"a\":1,}",
                    "{} {}",
                    "[".repeat(100_000),
                    "{\"a\":" + "[".repeat(5_000) + "]".repeat(5_000) + "}",
                    "\u0000",
                    "{\"id\":\"\\u0000\",\"name\":\"\\u0000\"}")) {
                specials.add(g -> authorized(new Req().method(op.method()).target(path(op, g, w, 0)), op, g, w)
                        .header("Content-Type", "application/json")
                        .body(text)
                        .note(op.id() + " " + Text.abbreviate(text, 20)));
            }
        }
        return specials;
    }
}
