<?php

declare(strict_types=1);

namespace Svc\PartnerSdk\Transport;

/** No answer came: the connection failed or timed out. The client turns it into NETWORK_ERROR. */
final class NetworkException extends \RuntimeException
{
}
