// Package sql holds the schema migrations, embedded into the binary.
//
// Migrations are append-only: a file, once on main, is never edited. Each is
// named NNNN_name.sql, or NNNN_name.sqlite.sql and NNNN_name.postgres.sql when
// the two databases need different statements for the same step.
package sql

import "embed"

// Migrations is the folder of numbered migration files.
//
//go:embed migrations/*.sql
var Migrations embed.FS
