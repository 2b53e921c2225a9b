module github.com/babelqueue/bqgen

go 1.24.0

require (
	github.com/dave/jennifer v1.7.1
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3
	github.com/spf13/pflag v1.1.0
	go.yaml.in/yaml/v3 v3.0.6
	golang.org/x/text v0.14.0
)

require golang.org/x/mod v0.30.0
