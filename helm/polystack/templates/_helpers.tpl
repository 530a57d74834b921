{{/* Chart name, at most 63 characters. */}}
{{- define "polystack.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Full name of the release's objects: RELEASE-polystack unless the release name contains the chart name. */}}
{{- define "polystack.fullname" -}}
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

{{- define "polystack.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Labels of every object. */}}
{{- define "polystack.labels" -}}
helm.sh/chart: {{ include "polystack.chart" . }}
{{ include "polystack.selectorLabels" . }}
app.kubernetes.io/version: {{ include "polystack.imageTag" . | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: polystack
app.kubernetes.io/component: control-plane
{{- end }}

{{/* Labels that select the pods; never change them between upgrades. */}}
{{- define "polystack.selectorLabels" -}}
app.kubernetes.io/name: {{ include "polystack.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "polystack.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "polystack.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{- define "polystack.imageTag" -}}
{{- .Values.image.tag | default .Chart.AppVersion }}
{{- end }}

{{- define "polystack.image" -}}
{{- printf "%s:%s" .Values.image.repository (include "polystack.imageTag" .) }}
{{- end }}

{{/* The JDBC URL; there is no embedded database on Kubernetes. */}}
{{- define "polystack.databaseUrl" -}}
{{- required "database.url is required: Polystack on Kubernetes needs an external PostgreSQL, e.g. --set database.url=jdbc:postgresql://postgres:5432/polystack (the embedded database is for a single machine only)" .Values.database.url }}
{{- end }}

{{/* Whether the chart's own Secret is needed, and what it holds. */}}
{{- define "polystack.secretName" -}}
{{- include "polystack.fullname" . }}
{{- end }}

{{- define "polystack.ownSecretNeeded" -}}
{{- if or (and .Values.database.password (not .Values.database.existingSecret)) (and .Values.encryption.key (not .Values.encryption.existingSecret)) (and .Values.bootstrap.adminToken (not .Values.bootstrap.existingSecret)) }}true{{- end }}
{{- end }}

{{/* The encryption key must come from somewhere: replicas must share it. */}}
{{- define "polystack.checkEncryptionKey" -}}
{{- if not .Values.encryption.existingSecret }}
{{- $_ := required "encryption.key or encryption.existingSecret is required: all replicas must share one AES-256 key (make one with `openssl rand -base64 32`)" .Values.encryption.key }}
{{- end }}
{{- end }}

{{/* Non-empty when the PodDisruptionBudget is rendered. */}}
{{- define "polystack.pdbEnabled" -}}
{{- if and .Values.podDisruptionBudget.enabled (or .Values.autoscaling.enabled (gt (int .Values.replicaCount) 1)) }}true{{- end }}
{{- end }}

{{/* topologySpreadConstraints; the ones without a labelSelector select this release's pods. */}}
{{- define "polystack.topologySpreadConstraints" -}}
{{- $constraints := list }}
{{- range .Values.topologySpreadConstraints }}
{{- $constraint := deepCopy . }}
{{- if not (hasKey $constraint "labelSelector") }}
{{- $_ := set $constraint "labelSelector" (dict "matchLabels" (include "polystack.selectorLabels" $ | fromYaml)) }}
{{- end }}
{{- $constraints = append $constraints $constraint }}
{{- end }}
{{- toYaml $constraints }}
{{- end }}

{{/* An emptyDir volume source, with a size limit when one is given. */}}
{{- define "polystack.emptyDir" -}}
{{- if . }}{{ dict "sizeLimit" . | toJson }}{{ else }}{}{{ end }}
{{- end }}
