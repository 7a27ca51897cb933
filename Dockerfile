# Build a static Fray binary, then run it as an unprivileged user on a
# minimal image. The server needs DATABASE_URL in a container (see
# docker-compose.yml); it does not start its own PostgreSQL there.
FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/fray ./cmd/server

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/fray /fray
USER nonroot:nonroot
EXPOSE 8080
ENV FRAY_ADDR=0.0.0.0:8080
ENTRYPOINT ["/fray"]
CMD ["serve"]
