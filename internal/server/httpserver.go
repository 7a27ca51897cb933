package server

import (
	"net/http"
	"time"
)

// Limits of the HTTP server, whatever the route. Bodies are bounded too
// (maxBodyBytes, in routes), and so are websocket messages (realtime).
const (
	// ReadHeaderTimeout bounds reading a request's headers (slow-loris).
	ReadHeaderTimeout = 10 * time.Second
	// ReadTimeout bounds reading a whole request, body included (at most
	// maxBodyBytes: a file of 1 MiB over a slow line).
	ReadTimeout = 60 * time.Second
	// WriteTimeout bounds writing an answer, from the end of its request's
	// headers (the largest are history exports). A websocket's connection
	// leaves both behind after its handshake: pings keep it alive instead.
	WriteTimeout = 2 * time.Minute
	// IdleTimeout closes a keep-alive connection left unused.
	IdleTimeout = 2 * time.Minute
	// MaxHeaderBytes bounds a request's headers (cookies included).
	MaxHeaderBytes = 64 << 10
)

// HTTPServer is an http.Server for h with the limits above.
func HTTPServer(h http.Handler) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: ReadHeaderTimeout,
		ReadTimeout:       ReadTimeout,
		WriteTimeout:      WriteTimeout,
		IdleTimeout:       IdleTimeout,
		MaxHeaderBytes:    MaxHeaderBytes,
	}
}
