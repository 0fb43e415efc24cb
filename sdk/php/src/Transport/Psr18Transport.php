<?php

declare(strict_types=1);

namespace Svc\PartnerSdk\Transport;

/**
 * Sends through your PSR-18 client (Guzzle, Symfony HttpClient's Psr18Client, …) with your PSR-17
 * factories. The PSR interfaces are only suggested dependencies, so they are named in the
 * docblocks and checked at run time.
 */
final class Psr18Transport implements Transport
{
    /**
     * @param object $client         a \Psr\Http\Client\ClientInterface
     * @param object $requestFactory a \Psr\Http\Message\RequestFactoryInterface
     * @param object $streamFactory  a \Psr\Http\Message\StreamFactoryInterface
     */
    public function __construct(
        private readonly object $client,
        private readonly object $requestFactory,
        private readonly object $streamFactory,
    ) {
        foreach (['sendRequest' => $client, 'createRequest' => $requestFactory, 'createStream' => $streamFactory] as $method => $object) {
            if (!method_exists($object, $method)) {
                throw new \InvalidArgumentException("Psr18Transport: the object given has no {$method}()");
            }
        }
    }

    public function send(string $method, string $url, array $headers, ?string $body, float $timeoutSeconds): Response
    {
        $request = $this->requestFactory->createRequest($method, $url);
        foreach ($headers as $name => $value) {
            $request = $request->withHeader($name, $value);
        }
        if ($body !== null) {
            $request = $request->withBody($this->streamFactory->createStream($body));
        }
        try {
            $answer = $this->client->sendRequest($request);
        } catch (\Throwable $error) {
            if ($error instanceof \Psr\Http\Client\ClientExceptionInterface) {
                throw new NetworkException($error->getMessage(), 0, $error);
            }
            throw $error;
        }
        $received = [];
        foreach (array_keys($answer->getHeaders()) as $name) {
            $received[strtolower((string) $name)] = $answer->getHeaderLine((string) $name);
        }
        return new Response($answer->getStatusCode(), $received, (string) $answer->getBody());
    }
}
