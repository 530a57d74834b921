package dev.polystack.platform.fuzz;

import dev.polystack.platform.testing.PostgresResource;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import static dev.polystack.platform.fuzz.Limits.BODY_LIMIT;

final class ManifestCases {

    static final List<String> YAML_TYPES =
            List.of("application/yaml", "application/x-yaml", "text/yaml", "text/x-yaml", "text/plain");

    static String path(World w, boolean dryRun) {
        return "/api/v1/orgs/" + w.manifestOrg + "/projects/shop/envs/prod/manifest" + (dryRun ? "/dry-run" : "");
    }

    static Req request(Gen g, World w, String contentType, byte[] body) {
        boolean dryRun = g.chance(0.5);
        Req request = new Req().method(dryRun ? "POST" : "PUT").target(path(w, dryRun));
        if (g.chance(0.05)) {
            request.target(g.oneOf(
                    path(w, dryRun).replace("/prod/", "/" + g.pathSegment() + "/"),
                    path(w, dryRun).replace(w.manifestOrg, g.pathSegment())));
        }
        if (g.chance(0.04)) {
            request.header("Authorization", g.authorization());
        } else if (!g.chance(0.03)) {
            request.bearer(PostgresResource.ADMIN_TOKEN);
        }
        if (contentType != null) {
            request.header("Content-Type", contentType);
        }
        if (g.chance(0.1)) {
            request.header(
                    "Accept",
                    g.oneOf("application/json", "*/*", "text/html", "application/yaml", "application/problem+json"));
        }
        return request.body(body);
    }

    /** A manifest that should pass: known types, params and references. */
    static Obj valid(Gen g) {
        Obj root = new Obj();
        List<String> sharedAliases = new ArrayList<>();
        if (g.chance(0.6)) {
            Obj shared = new Obj();
            for (int i = 0, n = g.between(1, 3); i < n; i++) {
                String alias = g.oneOf("net", "vpc", "main", "base") + i;
                sharedAliases.add(alias);
                shared.put(alias, g.chance(0.5) ? Obj.of("type", "vpc") : Obj.of("type", "vpc", "class", "default"));
            }
            root.put("shared", shared);
        }
        Obj workloads = new Obj();
        for (int w = 0, nw = g.between(1, 3); w < nw; w++) {
            Obj resources = new Obj();
            Obj outputs = new Obj();
            for (int i = 0, n = g.between(1, 4); i < n; i++) {
                String alias = g.oneOf("db", "cache", "queue", "store") + i;
                Obj params = new Obj();
                if (g.chance(0.6)) {
                    params.put(
                            "engine_version",
                            g.oneOf(
                                    "16",
                                    "${context.env_id}",
                                    "v-${context.res_id}",
                                    g.unicode(),
                                    "x".repeat(g.between(1, 2000))));
                }
                if (g.chance(0.3)) {
                    params.put("size", new Raw(Integer.toString(g.between(1, 64))));
                }
                Obj resource = Obj.of("type", "thing");
                if (!params.isEmpty() || g.chance(0.2)) {
                    resource.put("params", params);
                }
                resources.put(alias, resource);
                outputs.put("host" + i, "${resources." + alias + ".outputs.host}");
            }
            if (!sharedAliases.isEmpty() && g.chance(0.5)) {
                outputs.put("subnet", "${shared." + g.oneOf(sharedAliases) + ".outputs.subnet_id}");
            }
            if (g.chance(0.3)) {
                outputs.put("free", g.value(3));
            }
            Obj workload = Obj.of("resources", resources);
            if (g.chance(0.8)) {
                workload.put("outputs", outputs);
            }
            workloads.put(g.oneOf("api", "web", "worker", "batch") + w, workload);
        }
        root.put("workloads", workloads);
        return root;
    }

    /** A valid manifest with a few things broken. */
    static Object broken(Gen g) {
        Obj root = valid(g);
        for (int i = 0, n = g.between(1, 3); i < n; i++) {
            List<Obj> maps = new ArrayList<>();
            collect(root, maps);
            Obj target = g.oneOf(maps);
            switch (g.pick(12)) {
                case 0 -> target.put(g.string(), g.value(2)); // unknown key
                case 1 ->
                    target.put(target.isEmpty() ? "workloads" : target.get(0).getKey(), g.value(2)); // duplicate key
                case 2 -> {
                    if (!target.isEmpty()) {
                        target.get(g.pick(target.size())).setValue(g.value(2)); // wrong type
                    }
                }
                case 3 -> {
                    if (!target.isEmpty()) {
                        Map.Entry<String, Object> e = target.remove(g.pick(target.size()));
                        target.put(g.string(), e.getValue()); // odd name
                    }
                }
                case 4 -> target.put("type", g.oneOf("postgres", "vpc", "thing", "THING", "", g.string()));
                case 5 -> target.put("class", g.oneOf("default", "ha", "Default", "", g.string()));
                case 6 ->
                    target.put("id", g.oneOf("shared.net", "api0.db0", "..", "a..b", "x".repeat(300), g.string()));
                case 7 -> target.put("params", Obj.of("engine_version", g.placeholder(), g.slug(), g.placeholder()));
                case 8 -> target.put(g.slug(), g.nested(g.between(100, 990)));
                case 9 -> target.put(g.slug(), g.oneOf("a", "é", "${").repeat(g.between(10_000, 200_000)));
                case 10 -> {
                    if (!target.isEmpty()) {
                        target.remove(g.pick(target.size())); // missing key
                    }
                }
                default -> target.put("params", manyParams(g, g.between(90, 110)));
            }
        }
        return root;
    }

    static Obj manyParams(Gen g, int n) {
        Obj params = new Obj();
        for (int i = 0; i < n; i++) {
            params.put("p" + i, g.string());
        }
        return params;
    }

    static void collect(Object value, List<Obj> into) {
        if (value instanceof Obj obj) {
            into.add(obj);
            obj.forEach(e -> collect(e.getValue(), into));
        } else if (value instanceof List<?> list) {
            list.forEach(v -> collect(v, into));
        }
    }

    static Req random(Gen g, World w) {
        Object tree = switch (g.pick(10)) {
            case 0, 1, 2 -> valid(g);
            case 3, 4, 5, 6 -> broken(g);
            case 7 -> g.value(g.between(1, 6));
            default ->
                Obj.of(
                        g.oneOf("workloads", "shared", g.slug()),
                        g.value(4),
                        g.oneOf("shared", "workloads"),
                        g.value(4));
        };
        boolean json = g.chance(0.3);
        String text = json ? jsonText(tree, g) : new Text.Yaml(g, g.chance(0.5)).write(tree);
        byte[] body = text.getBytes(StandardCharsets.UTF_8);
        if (g.chance(0.25)) {
            body = mangle(body, g);
        }
        String contentType = json
                ? g.oneOf("application/json", "application/json; charset=utf-8", "text/plain", "application/yaml")
                : g.oneOf(YAML_TYPES);
        if (g.chance(0.08)) {
            contentType = g.oneOf(
                    null,
                    "",
                    "application/xml",
                    "image/png",
                    "multipart/form-data; boundary=x",
                    "application/x-www-form-urlencoded",
                    "application/octet-stream",
                    "application/yaml; charset=utf-16",
                    "application/json; charset=latin1",
                    "text/yaml; charset=nope",
                    "a/b/c",
                    "*/*",
                    "application/*",
                    "application/yaml;;;",
                    "application/yaml; q=x",
                    g.ascii(30));
        }
        return request(g, w, contentType, body)
                .note(tree instanceof Obj o && o.get("workloads") != null ? "manifest" : "value");
    }

    static String jsonText(Object tree, Gen g) {
        StringBuilder out = new StringBuilder();
        Text.json(tree, out, g, g.chance(0.1));
        return out.toString();
    }

    /** Byte-level damage: truncation, garbage, invalid UTF-8, tabs, CRLF, BOMs, trailing junk. */
    static byte[] mangle(byte[] body, Gen g) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        switch (g.pick(9)) {
            case 0 -> out.write(body, 0, body.length == 0 ? 0 : g.pick(body.length));
            case 1 -> {
                out.writeBytes(body);
                out.writeBytes(g.oneOf("\n}}}", "]]", "\u0000", "garbage", "\n- x\n", ": :", "\n\t\tx: y\n")
                        .getBytes(StandardCharsets.UTF_8));
            }
            case 2 -> {
                int at = body.length == 0 ? 0 : g.pick(body.length);
                out.write(body, 0, at);
                out.writeBytes(new byte[] {
                    (byte) 0xC3, (byte) 0x28, (byte) 0xFF, (byte) 0xFE, (byte) 0xED, (byte) 0xA0, (byte) 0x80
                });
                out.write(body, at, body.length - at);
            }
            case 3 ->
                out.writeBytes(new String(body, StandardCharsets.UTF_8)
                        .replace("  ", "\t")
                        .getBytes(StandardCharsets.UTF_8));
            case 4 ->
                out.writeBytes(new String(body, StandardCharsets.UTF_8)
                        .replace("\n", "\r\n")
                        .getBytes(StandardCharsets.UTF_8));
            case 5 -> {
                out.writeBytes(new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF});
                out.writeBytes(body);
            }
            case 6 -> out.writeBytes(new String(body, StandardCharsets.UTF_8).getBytes(StandardCharsets.UTF_16));
            case 7 -> {
                byte[] garbage = new byte[g.between(1, 4096)];
                g.r.nextBytes(garbage);
                out.writeBytes(garbage);
            }
            default -> {
                byte[] copy = body.clone();
                for (int i = 0, n = g.between(1, 10); i < n && copy.length > 0; i++) {
                    copy[g.pick(copy.length)] = (byte) g.pick(256);
                }
                out.writeBytes(copy);
            }
        }
        return out.toByteArray();
    }

    static Function<Gen, Req> yaml(World w, String text, String note) {
        return g -> request(g, w, "application/yaml", text.getBytes(StandardCharsets.UTF_8))
                .note(note);
    }

    static List<Function<Gen, Req>> specials(World w) {
        List<Function<Gen, Req>> specials = new ArrayList<>();
        // Billion laughs: nine levels of nine aliases each. It must be refused, quickly, not expanded.
        StringBuilder bomb = new StringBuilder(
                "workloads:\n  api:\n    resources:\n      db: { type: thing }\n    outputs:\n      l0: &l0 \"lol\"\n");
        for (int i = 1; i <= 9; i++) {
            bomb.append("      l")
                    .append(i)
                    .append(": &l")
                    .append(i)
                    .append(" [")
                    .append(String.join(", ", Collections.nCopies(9, "*l" + (i - 1))))
                    .append("]\n");
        }
        String bombText = bomb.toString();
        StringBuilder mapBomb = new StringBuilder("workloads:\n  api:\n    outputs:\n      l0: &l0 { a: lol }\n");
        for (int i = 1; i <= 9; i++) {
            List<String> entries = new ArrayList<>();
            for (int k = 0; k < 9; k++) {
                entries.add("k" + k + ": *l" + (i - 1));
            }
            mapBomb.append("      l")
                    .append(i)
                    .append(": &l")
                    .append(i)
                    .append(" { ")
                    .append(String.join(", ", entries))
                    .append(" }\n");
        }
        for (Function<Gen, Req> f : List.of(
                yaml(w, bombText, "alias bomb"),
                yaml(w, mapBomb.toString(), "alias bomb of maps"),
                yaml(w, "shared:\n  net: &n { type: vpc }\n  net2: *n\n", "alias of a resource"),
                yaml(
                        w,
                        "workloads:\n  api:\n    resources:\n      db: { type: thing, params: { version: &v \"16\" } }\n      db2: { type: thing, params: { version: *v } }\n",
                        "alias of a param"),
                yaml(w, "base: &b { type: thing }\nshared:\n  x:\n    <<: *b\n", "merge key"),
                yaml(w, "shared:\n  x: *undefined\n", "undefined alias"),
                yaml(w, "shared:\n  *x : { type: vpc }\n", "alias as a key"))) {
            specials.add(g -> {
                Req r = f.apply(g);
                // refused, not expanded: a bomb expanded would not answer within the requests' limit
                // (Limits.TIMEOUT_MS)
                r.expectRefusal = true;
                return r;
            });
        }
        // deep nesting, flow and block, in YAML and JSON
        String deepFlow = "[".repeat(10_000) + "]".repeat(10_000);
        specials.add(g -> request(
                        g,
                        w,
                        "application/yaml",
                        ("shared:\n  a: { type: thing, params: { version: " + deepFlow + " } }\n")
                                .getBytes(StandardCharsets.UTF_8))
                .note("10,000 nested flow lists"));
        specials.add(g -> request(g, w, "application/yaml", deepFlow.getBytes(StandardCharsets.UTF_8))
                .note("10,000 nested lists"));
        specials.add(g -> request(
                        g,
                        w,
                        "application/yaml",
                        "{a: ".repeat(10_000).concat("}".repeat(10_000)).getBytes(StandardCharsets.UTF_8))
                .note("10,000 nested flow maps"));
        specials.add(g -> request(
                        g,
                        w,
                        "application/json",
                        "{\"a\":"
                                .repeat(10_000)
                                .concat("1")
                                .concat("}".repeat(10_000))
                                .getBytes(StandardCharsets.UTF_8))
                .note("10,000 nested JSON objects"));
        specials.add(g -> {
            StringBuilder block = new StringBuilder();
            for (int i = 0; i < 1_100; i++) {
                block.append(" ".repeat(i)).append("k:\n");
            }
            return request(g, w, "application/yaml", block.toString().getBytes(StandardCharsets.UTF_8))
                    .note("1,100 nested block maps");
        });
        for (int depth : new int[] {900, 995}) {
            specials.add(g -> request(
                            g,
                            w,
                            "application/yaml",
                            ("workloads:\n  api:\n    resources:\n      db: { type: thing }\n    outputs:\n      deep: "
                                            + "[".repeat(depth) + "1" + "]".repeat(depth) + "\n")
                                    .getBytes(StandardCharsets.UTF_8))
                    .note(depth + " nested lists in outputs"));
            specials.add(g -> request(
                            g,
                            w,
                            "application/json",
                            ("{\"shared\":{\"a\":{\"type\":\"thing\",\"params\":{\"version\":" + "{\"x\":".repeat(depth)
                                            + "\"y\"" + "}".repeat(depth) + "}}}}")
                                    .getBytes(StandardCharsets.UTF_8))
                    .note(depth + " nested maps in params"));
        }
        // empty and almost empty bodies
        for (String text : List.of(
                "",
                " ",
                "\n\n",
                "---",
                "...",
                "~",
                "null",
                "[]",
                "{}",
                "\"x\"",
                "42",
                "- a\n- b\n",
                "#",
                "%YAML 1.2",
                "--- |\n  x\n",
                "workloads:",
                "shared:",
                "workloads: ~\nshared: ~\n",
                "workloads: []",
                "shared: \"\"",
                "workloads: { a: }")) {
            specials.add(g -> request(g, w, g.oneOf(YAML_TYPES), text.getBytes(StandardCharsets.UTF_8))
                    .note("small"));
            specials.add(g -> request(g, w, "application/json", text.getBytes(StandardCharsets.UTF_8))
                    .note("small json"));
        }
        specials.add(g -> request(g, w, "application/yaml", null).note("no body"));
        specials.add(g -> request(g, w, null, "shared:\n  a: { type: thing }\n".getBytes(StandardCharsets.UTF_8))
                .note("no Content-Type"));
        for (String type : List.of(
                "application/xml",
                "image/png",
                "multipart/form-data; boundary=x",
                "application/x-www-form-urlencoded",
                "application/octet-stream",
                "text/html",
                "application/yaml; charset=utf-16",
                "application/json; charset=utf-32",
                "application/yaml; charset=nope",
                "application/json; charset=\"",
                "x",
                "/",
                ";",
                "application/",
                "text/plain; boundary=\u00e9")) {
            specials.add(g -> request(g, w, type, "shared:\n  a: { type: thing }\n".getBytes(StandardCharsets.UTF_8))
                    .note("content type " + type));
        }
        specials.add(g -> request(
                        g, w, "application/x-www-form-urlencoded", "a=%zz&b=%&&=c&d".getBytes(StandardCharsets.UTF_8))
                .note("form"));
        specials.add(g -> request(
                        g,
                        w,
                        "multipart/form-data; boundary=b",
                        "--b\r\nContent-Disposition: form-data; name=\"f\"; filename=\"../../x\"\r\n\r\nx\r\n--b"
                                .getBytes(StandardCharsets.UTF_8))
                .note("multipart"));
        // binary garbage
        specials.add(g -> {
            byte[] garbage = new byte[65536];
            g.r.nextBytes(garbage);
            return request(g, w, "application/yaml", garbage).note("64 KiB of random bytes");
        });
        specials.add(g -> request(
                        g, w, "application/yaml", new byte[] {(byte) 0x89, 'P', 'N', 'G', 13, 10, 26, 10, 0, 0, 0, 13})
                .note("PNG"));
        specials.add(g -> request(g, w, "application/yaml", new byte[] {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0})
                .note("gzip"));
        specials.add(g -> request(
                        g, w, "application/yaml", "shared:\n  a: { type: thing }\n".getBytes(StandardCharsets.UTF_16LE))
                .note("UTF-16LE"));
        specials.add(
                g -> request(g, w, "application/yaml", "\u0000".repeat(1000).getBytes(StandardCharsets.UTF_8))
                        .note("NULs"));
        // huge strings and long lines, just under the body limit
        specials.add(g -> request(
                        g,
                        w,
                        "application/yaml",
                        ("shared:\n  a: { type: thing, params: { version: \"" + "x".repeat(BODY_LIMIT - 100)
                                        + "\" } }\n")
                                .getBytes(StandardCharsets.UTF_8))
                .note("a string of almost 1 MiB"));
        specials.add(g -> request(
                        g,
                        w,
                        "application/yaml",
                        ("shared:\n  " + "k".repeat(BODY_LIMIT - 100) + ": { type: thing }\n")
                                .getBytes(StandardCharsets.UTF_8))
                .note("a key of almost 1 MiB"));
        specials.add(g -> request(
                        g,
                        w,
                        "application/yaml",
                        ("workloads:\n  api:\n    outputs:\n      x: " + "${".repeat(200_000) + "\n")
                                .getBytes(StandardCharsets.UTF_8))
                .note("200,000 unclosed ${"));
        specials.add(g -> request(
                        g,
                        w,
                        "application/yaml",
                        ("workloads:\n  api:\n    resources:\n      db: { type: thing }\n    outputs:\n      x: \"${resources."
                                        + "db.".repeat(100_000) + "outputs}\"\n")
                                .getBytes(StandardCharsets.UTF_8))
                .note("a placeholder with 100,000 parts"));
        specials.add(g -> request(
                        g,
                        w,
                        "application/yaml",
                        ("workloads:\n  api:\n    resources:\n      db: { type: thing }\n    outputs:\n      x: \""
                                        + "${resources.db.outputs.host}".repeat(30_000) + "\"\n")
                                .getBytes(StandardCharsets.UTF_8))
                .note("30,000 placeholders in one string"));
        specials.add(g -> request(
                        g,
                        w,
                        "application/yaml",
                        ("x: " + "a ".repeat(400_000) + "\n").getBytes(StandardCharsets.UTF_8))
                .note("a long plain scalar"));
        specials.add(g -> request(
                        g,
                        w,
                        "application/yaml",
                        ("x: '" + "''".repeat(300_000) + "'\n").getBytes(StandardCharsets.UTF_8))
                .note("quotes"));
        specials.add(g -> request(
                        g,
                        w,
                        "application/yaml",
                        ("x: \"" + "\\u00e9".repeat(150_000) + "\"\n").getBytes(StandardCharsets.UTF_8))
                .note("escapes"));
        specials.add(g -> request(g, w, "application/yaml", "- ".repeat(300_000).getBytes(StandardCharsets.UTF_8))
                .note("nested block lists on one line"));
        specials.add(g -> request(g, w, "application/yaml", "? ".repeat(300_000).getBytes(StandardCharsets.UTF_8))
                .note("complex keys"));
        specials.add(
                g -> request(g, w, "application/yaml", "&a ".repeat(300_000).getBytes(StandardCharsets.UTF_8))
                        .note("anchors"));
        specials.add(
                g -> request(g, w, "application/yaml", "!!str ".repeat(100_000).getBytes(StandardCharsets.UTF_8))
                        .note("tags"));
        specials.add(g -> request(
                        g, w, "application/yaml", "#".repeat(BODY_LIMIT - 10).getBytes(StandardCharsets.UTF_8))
                .note("a long comment"));
        specials.add(g -> request(
                        g, w, "application/yaml", "\n".repeat(BODY_LIMIT - 10).getBytes(StandardCharsets.UTF_8))
                .note("a million lines"));
        specials.add(
                g -> request(g, w, "application/yaml", "---\n".repeat(200_000).getBytes(StandardCharsets.UTF_8))
                        .note("200,000 documents"));
        specials.add(g -> {
            Req r = request(
                    g,
                    w,
                    "application/yaml",
                    ("shared:\n  a: { type: thing }\n#" + "x".repeat(BODY_LIMIT)).getBytes(StandardCharsets.UTF_8));
            r.expectStatus = 413;
            return r.note("just over 1 MiB");
        });
        // the limit counts the bytes read, whatever the framing, and applies to the path as routed
        byte[] threeMebibytes =
                ("shared:\n  a: { type: thing }\n#" + "x".repeat(3 * BODY_LIMIT)).getBytes(StandardCharsets.UTF_8);
        for (String route : List.of("", "/api/state/../v1", "/api/state/%2e%2e/v1", "/api/state/./../v1")) {
            for (boolean chunked : List.of(false, true)) {
                specials.add(g -> {
                    Req r = request(g, w, "application/yaml", threeMebibytes);
                    if (!route.isEmpty()) {
                        r.target(r.target.replace("/api/v1", route));
                    }
                    r.chunked = chunked;
                    r.expectStatus = 413;
                    return r.note(
                            "3 MiB" + (chunked ? ", chunked" : "") + (route.isEmpty() ? "" : " through " + route));
                });
            }
        }
        // many resources and params
        specials.add(g -> {
            StringBuilder many = new StringBuilder("shared:\n");
            for (int i = 0; i <= 10_000; i++) {
                many.append("  r").append(i).append(": {type: vpc}\n");
            }
            Req r = request(g, w, "application/yaml", many.toString().getBytes(StandardCharsets.UTF_8))
                    .note("10,001 resources");
            r.expectRefusal = true;
            return r;
        });
        specials.add(g -> {
            StringBuilder many = new StringBuilder("workloads:\n");
            for (int i = 0; i < 300; i++) {
                many.append("  w").append(i).append(":\n    resources:\n");
                for (int j = 0; j < 5; j++) {
                    many.append("      r")
                            .append(j)
                            .append(": { type: thing, params: { version: \"${resources.r")
                            .append((j + 1) % 5)
                            .append(".outputs.host}\" } }\n");
                }
            }
            Req r = request(g, w, "application/yaml", many.toString().getBytes(StandardCharsets.UTF_8))
                    .note("300 reference cycles");
            r.expectRefusal = true;
            return r;
        });
        specials.add(g -> request(
                        g,
                        w,
                        "application/yaml",
                        ("shared:\n  a:\n    type: thing\n    params:\n" + "      p: x\n".repeat(50_000))
                                .getBytes(StandardCharsets.UTF_8))
                .note("50,000 duplicate keys"));
        specials.add(g -> request(
                        g,
                        w,
                        "application/json",
                        Text.json(Obj.of("shared", Obj.of("a", Obj.of("type", "thing", "params", manyParams(g, 5000)))))
                                .getBytes(StandardCharsets.UTF_8))
                .note("5,000 params"));
        // odd characters
        for (String odd : List.of(
                "\\0",
                "\\x00",
                "\\u0000",
                "\\a\\b\\e",
                "\\uD800",
                "\\U0001F600",
                "\\N\\_\\L\\P",
                "\\u202e",
                "\\uFFFF",
                "\\uFFFE")) {
            specials.add(g -> request(
                            g,
                            w,
                            "application/yaml",
                            ("workloads:\n  api:\n    resources:\n      db: { type: thing, params: { version: \"a"
                                            + odd + "b\" } }\n" + "    outputs:\n      \"k" + odd + "\": \"v" + odd
                                            + "\"\n")
                                    .getBytes(StandardCharsets.UTF_8))
                    .note("escape " + odd));
            specials.add(g -> request(
                            g,
                            w,
                            "application/json",
                            ("{\"workloads\":{\"api\":{\"resources\":{\"db\":{\"type\":\"thing\",\"params\":{\"version\":\"a"
                                            + odd.replace("\\0", "\\u0000").replace("\\x00", "\\u0000")
                                            + "b\"}}},\"outputs\":{\"k\":\"v" + odd.replace("\\0", "\\u0000")
                                            + "\"}}}}")
                                    .getBytes(StandardCharsets.UTF_8))
                    .note("json escape " + odd));
        }
        for (String raw : List.of("\u0000", "\u0007", "\u001b", "\u007f", "\u0085", "\u2028", "\uFEFF", "\t", "\r")) {
            specials.add(g -> request(
                            g,
                            w,
                            "application/yaml",
                            ("shared:\n  a: { type: thing, params: { version: \"a" + raw + "b\" } }\n")
                                    .getBytes(StandardCharsets.UTF_8))
                    .note("raw character " + (int) raw.charAt(0)));
        }
        specials.add(g -> request(
                        g, w, "application/yaml", "shared:\n\ta: { type: thing }\n".getBytes(StandardCharsets.UTF_8))
                .note("tab indentation"));
        specials.add(g -> request(
                        g,
                        w,
                        "application/yaml",
                        "shared:\n  a: { type: thing }\nshared:\n  b: { type: vpc }\n".getBytes(StandardCharsets.UTF_8))
                .note("duplicate top key"));
        specials.add(g -> request(
                        g,
                        w,
                        "application/json",
                        "{\"shared\":{},\"shared\":{\"a\":{\"type\":\"vpc\"}}}".getBytes(StandardCharsets.UTF_8))
                .note("duplicate JSON key"));
        specials.add(g -> request(
                        g,
                        w,
                        "application/yaml",
                        "--- !!python/object/apply:os.system [\"ls\"]\n".getBytes(StandardCharsets.UTF_8))
                .note("python tag"));
        specials.add(g -> request(
                        g,
                        w,
                        "application/yaml",
                        "shared: !!java.net.URL [\"http://example.com\"]\n".getBytes(StandardCharsets.UTF_8))
                .note("java tag"));
        specials.add(g -> request(
                        g,
                        w,
                        "application/yaml",
                        "shared:\n  a: { type: !!binary dGhpbmc= }\n".getBytes(StandardCharsets.UTF_8))
                .note("binary tag"));
        specials.add(g -> request(
                        g,
                        w,
                        "application/yaml",
                        "shared:\n  ? [a, b]\n  : { type: thing }\n".getBytes(StandardCharsets.UTF_8))
                .note("complex key"));
        specials.add(g -> request(
                        g,
                        w,
                        "application/yaml",
                        "shared:\n  a: { type: thing }\n---\nshared:\n  b: { type: vpc }\n"
                                .getBytes(StandardCharsets.UTF_8))
                .note("two documents"));
        specials.add(g -> request(
                        g,
                        w,
                        "application/json",
                        "{\"shared\":{\"a\":{\"type\":\"thing\"}}} trailing".getBytes(StandardCharsets.UTF_8))
                .note("JSON with trailing garbage"));
        return specials;
    }
}
