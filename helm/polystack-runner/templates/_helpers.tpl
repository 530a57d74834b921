{{/* Chart name, at most 63 characters. */}}
{{- define "polystack-runner.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Full name of the release's objects: RELEASE-polystack-runner unless the release name contains the chart name. */}}
{{- define "polystack-runner.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "polystack-runner.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "polystack-runner.labels" -}}
helm.sh/chart: {{ include "polystack-runner.chart" . }}
{{ include "polystack-runner.selectorLabels" . }}
app.kubernetes.io/version: {{ include "polystack-runner.imageTag" . | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: polystack
app.kubernetes.io/component: runner
{{- end }}

{{- define "polystack-runner.selectorLabels" -}}
app.kubernetes.io/name: {{ include "polystack-runner.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "polystack-runner.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "polystack-runner.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{- define "polystack-runner.imageTag" -}}
{{- .Values.image.tag | default .Chart.AppVersion }}
{{- end }}

{{- define "polystack-runner.image" -}}
{{- printf "%s:%s" .Values.image.repository (include "polystack-runner.imageTag" .) }}
{{- end }}

{{/* The image of the job pods: job.image, or the agent's own image. */}}
{{- define "polystack-runner.jobImage" -}}
{{- printf "%s:%s" (.Values.job.image.repository | default .Values.image.repository) (.Values.job.image.tag | default (include "polystack-runner.imageTag" .)) }}
{{- end }}

{{/* Non-empty in kubernetes-job mode; fails on an unknown mode. */}}
{{- define "polystack-runner.kubernetesJobs" -}}
{{- if not (has .Values.mode (list "process" "kubernetes-job")) }}
{{- fail (printf "mode must be process or kubernetes-job, not %q" .Values.mode) }}
{{- end }}
{{- if eq .Values.mode "kubernetes-job" }}true{{ end }}
{{- end }}

{{- define "polystack-runner.jobNamespace" -}}
{{- .Values.job.namespace | default .Release.Namespace }}
{{- end }}

{{- define "polystack-runner.secretName" -}}
{{- .Values.privateKey.existingSecret | default (include "polystack-runner.fullname" .) }}
{{- end }}

{{- define "polystack-runner.secretKey" -}}
{{- if .Values.privateKey.existingSecret }}{{ .Values.privateKey.existingSecretKey }}{{ else }}runner.key{{ end }}
{{- end }}

{{/* Non-empty when the ConfigMap (job pod template, CLI configuration) is rendered. */}}
{{- define "polystack-runner.configMapNeeded" -}}
{{- if or (include "polystack-runner.kubernetesJobs" .) .Values.cliConfig }}true{{ end }}
{{- end }}

{{/* The job pod template as a Pod manifest. */}}
{{- define "polystack-runner.podTemplate" -}}
{{- mustMergeOverwrite (dict "apiVersion" "v1" "kind" "Pod") (deepCopy (.Values.job.podTemplate | default dict)) | toYaml }}
{{- end }}

{{/* An emptyDir volume source, with a size limit when one is given. */}}
{{- define "polystack-runner.emptyDir" -}}
{{- if . }}{{ dict "sizeLimit" . | toJson }}{{ else }}{}{{ end }}
{{- end }}

{{/* Checks the required values. */}}
{{- define "polystack-runner.validate" -}}
{{- $_ := required "url is required: the control plane's URL, e.g. --set url=http://polystack.polystack.svc" .Values.url }}
{{- if not (regexMatch "^https?://" .Values.url) }}
{{- fail (printf "url must be an http(s) URL such as https://polystack.example.com, not %q" .Values.url) }}
{{- end }}
{{- $_ = required "org is required: the organization id of the runner" .Values.org }}
{{- $_ = required "runner is required: the runner id registered with POST /api/v1/orgs/{org}/runners" .Values.runner }}
{{- if not .Values.privateKey.existingSecret }}
{{- $_ = required "privateKey.value or privateKey.existingSecret is required: the runner's Ed25519 private key (PEM)" .Values.privateKey.value }}
{{- end }}
{{- $reserved := list "url" "org" "runner" "key-file" "max-jobs" "log-level" "shutdown-grace" "work-dir" "plugin-cache-dir" "cli-config" "executor" "job-namespace" "job-image" "job-service-account" "job-pod-template" "job-start-timeout" "job-ttl" }}
{{- range $name, $value := .Values.settings }}
{{- if has $name $reserved }}
{{- fail (printf "settings.%s is set by the chart: use its own value instead (see helm/README.md)" $name) }}
{{- end }}
{{- end }}
{{- range $name, $value := merge (dict) .Values.tofuEnv .Values.tofuEnvFromSecrets }}
{{- if not (regexMatch "^[A-Za-z_][A-Za-z0-9_]*$" $name) }}
{{- fail (printf "tofuEnv/tofuEnvFromSecrets: %q is not an environment variable name" $name) }}
{{- end }}
{{- end }}
{{- end }}
