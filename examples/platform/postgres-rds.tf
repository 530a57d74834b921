variable "name" { type = string }
variable "subnet" { type = string }
variable "engine_version" {
  type    = string
  default = "16"
}
resource "terraform_data" "db" {
  input = { name = var.name, subnet = var.subnet, engine_version = var.engine_version }
}
output "host" { value = "${var.name}.db.internal" }
output "port" { value = 5432 }
