package dev.polystack.rules.module;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

class ModuleInterfaceTest {

    /** A module that uses most of the native syntax: templates, heredocs, comments, for expressions, one-line blocks. */
    static final String RICH = """
            # a comment
            // another
            /* and a
               block comment */
            terraform {
              required_version = ">= 1.6"
            }
            variable "name" {
              type        = string
              description = "The \\"name\\" of it"
            }
            variable "tags" {
              type = map(object({
                owner = string # who
                cost  = optional(number, 1)
              }))
              default = {}
            }
            variable "secret" {
              type      = string
              sensitive = true
              default   = null
              validation {
                condition     = length(var.secret) > 3 || var.secret == null
                error_message = "Too short: ${var.secret != null ? "x" : "y"}."
              }
            }
            locals {
              script = <<-EOT
                echo "${var.name}" { not a block
                %{ for k, v in var.tags }${k}=${v.owner}%{ endfor }
              EOT
              list   = [for t in keys(var.tags) : upper(t) if t != "}"]
              map    = { for k, v in var.tags : k => v.cost... }
              path   = "$${not.interpolated} %%{ nor this }"
              math   = (1 + 2) * 3 / 4 % 5 - -1
            }
            resource "terraform_data" "this" {
              input = { name = var.name, list = local.list }
              lifecycle { create_before_destroy = true }
              provisioner "local-exec" {
                command = "echo ${self.id}"
              }
            }
            output "host" {
              value       = "${var.name}.db.internal"
              description = "Where to connect"
            }
            output "password" {
              value     = var.secret
              sensitive = true
            }
            """;

    @Test
    void variablesAndOutputsOfRichHcl() {
        ModuleInterface module = ModuleInterface.read(RICH);
        assertThat(module.variables()).containsOnlyKeys("name", "tags", "secret");
        assertThat(module.variables().get("name"))
                .isEqualTo(new ModuleInterface.Variable("name", "string", true, false, "The \"name\" of it"));
        assertThat(module.variables().get("tags").required()).isFalse();
        assertThat(module.variables().get("tags").type()).startsWith("map(object({");
        assertThat(module.variables().get("secret").sensitive()).isTrue();
        assertThat(module.outputs()).containsOnlyKeys("host", "password");
        assertThat(module.outputs().get("password").sensitive()).isTrue();
        assertThat(module.outputs().get("host").description()).isEqualTo("Where to connect");
    }

    @Test
    void jsonSyntaxToo() {
        ModuleInterface module = ModuleInterface.read("""
                {"variable": {"name": {"type": "string"}, "size": {"default": 1}},
                 "resource": {"terraform_data": {"this": {"input": "${var.name}"}}},
                 "output": {"name": {"value": "${var.name}"}, "key": [{"value": "k", "sensitive": true}]}}
                """);
        assertThat(module.variables().get("name").required()).isTrue();
        assertThat(module.variables().get("size").required()).isFalse();
        assertThat(module.outputs().get("key").sensitive()).isTrue();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            unclosed block               | resource "a" "b" {\\n  x = 1\\n                        | 1 | 1  | Unclosed configuration block
            unclosed string              | output "x" {\\n  value = "abc\\n}\\n                    | 2 | 11 | Unterminated template string
            string across lines          | output "x" {\\n  value = "${var.a\\n}\\n                | 2 | 11 | Unterminated template string
            quote in interpolation       | output "x" {\\n  value = "${var.a"\\n}\\n               | 2 | 19 | Unterminated template string
            operator at the end          | locals {\\n  a = 1 +\\n}\\n                               | 2 | 3  | Invalid expression
            mismatched brackets          | locals {\\n  a = [1, 2)\\n}\\n                          | 2 | 12 | Mismatched brackets
            missing value                | locals {\\n  a =\\n}\\n                                 | 2 | 3  | Missing expression
            attribute without equals     | locals {\\n  a 1\\n}\\n                                 | 2 | 5  | Invalid block definition
            stray closing brace          | }\\n                                                    | 1 | 1  | unexpected `}`
            unclosed interpolation       | output "x" {\\n  value = "${var.a                             | 2 | 12 | Unclosed template interpolation
            single quotes                | locals {\\n  a = 'x'\\n}\\n                             | 2 | 7  | Invalid character
            bad escape                   | locals {\\n  a = "\\\\q"\\n}\\n                         | 2 | 8  | Invalid escape sequence
            unterminated heredoc         | locals {\\n  a = <<EOT\\n  text\\n}\\n                  | 2 | 7  | Unterminated heredoc
            unterminated comment         | /* open\\nvariable "a" {}\\n                             | 1 | 1  | Unterminated comment
            two definitions on one line  | locals {\\n  a = 1 b = 2\\n}\\n                         | 2 | 9  | Missing newline
            unknown block type           | bogus "x" {\\n}\\n                                      | 1 | 1  | Unsupported block type
            top-level argument           | x = 1\\n                                                | 1 | 1  | Unsupported argument
            wrong label count            | resource "a" {\\n}\\n                                   | 1 | 1  | takes 2 labels
            reserved variable            | variable "version" {\\n}\\n                             | 1 | 1  | is reserved
            duplicate output             | output "a" {\\n  value = 1\\n}\\noutput "a" {\\n  value = 2\\n}\\n | 4 | 1 | Duplicate output
            output without value         | output "a" {\\n}\\n                                     | 1 | 1  | needs a `value`
            unknown variable argument    | variable "a" {\\n  typo = string\\n}\\n                 | 2 | 3  | Unsupported argument
            """)
    void problemsSayWhatAndWhere(String name, String code, int line, int column, String message) {
        String source = code.strip().replace("\\n", "\n").replace("\\\\", "\\");
        ModuleInterface.InvalidModuleException e =
                catchThrowableOfType(ModuleInterface.InvalidModuleException.class, () -> ModuleInterface.read(source));
        assertThat(e).as(name).isNotNull();
        assertThat(e.problems().get(0).message()).as(name).contains(message);
        assertThat(e.problems().get(0).line()).as(name + " line").isEqualTo(line);
        assertThat(e.problems().get(0).column()).as(name + " column").isEqualTo(column);
    }

    @Test
    void invalidJsonHasItsPosition() {
        assertThatThrownBy(() -> ModuleInterface.read("{\"output\": {\"a\": {\"value\": 1,}}}"))
                .isInstanceOfSatisfying(ModuleInterface.InvalidModuleException.class, e -> {
                    assertThat(e.problems().get(0).line()).isEqualTo(1);
                    assertThat(e.problems().get(0).column()).isGreaterThan(20);
                    assertThat(e.problems().get(0).message()).startsWith("Invalid JSON");
                });
        assertThatThrownBy(() -> ModuleInterface.read("{\"variable\": {\"count\": {}}}"))
                .hasMessageContaining("is reserved");
    }
}
